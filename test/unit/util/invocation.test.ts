import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, ROOT } from '../../helpers/cli.js'
import { asInvoked, invokedAsPlugin } from '../../../src/util/invocation.js'
import { RULES } from '../../../src/rules/index.js'

// Issue 32 item 7: actions name the real objects; hints are worded as the user invoked us; markdown survives a paste.
describe('actions and hints a user can paste', () => {
  it('knows it runs as a kubectl plugin from the binary kubectl started', () => {
    expect(invokedAsPlugin(['/usr/bin/node', '/home/u/.krew/bin/kubectl-chainnode'], '/usr/bin/node')).toBe(true)
    expect(invokedAsPlugin(['/usr/bin/node', '/usr/lib/node_modules/x/bin/kubectl_complete-chainnode'], '/usr/bin/node')).toBe(true)
    expect(invokedAsPlugin(['/opt/kubectl-chainnode', 'doctor'], '/opt/kubectl-chainnode')).toBe(true)
    expect(invokedAsPlugin(['/usr/bin/node', '/usr/local/bin/chainnode'], '/usr/bin/node')).toBe(false)
  })

  it('rewrites hints, never names that only contain the word', () => {
    const text = 'Docs: chainnode rules explain x; see chainnode --help; kubectl chainnode logs a; pod chainnode-0; /bin/chainnode doctor; chainnode is down'
    expect(asInvoked(text, true)).toBe(
      'Docs: kubectl chainnode rules explain x; see kubectl chainnode --help; kubectl chainnode logs a; pod chainnode-0; /bin/chainnode doctor; chainnode is down',
    )
    expect(asInvoked(text, false)).toBe(text)
  })

  it('a hint already worded and then wrapped between "kubectl" and "chainnode" is not worded again (status banner at 80 columns)', () => {
    const wrapped = 'not a running replica (for sc-leader-election/le-0; kubectl\n  chainnode doctor --rule leader-election explains)'
    expect(asInvoked(wrapped, true)).toBe(wrapped)
    expect(asInvoked(asInvoked('see chainnode doctor', true), true)).toBe('see kubectl chainnode doctor')
  })

  it('doctor run as kubectl-chainnode says kubectl chainnode in its hints and actions; JSON keeps its words', { timeout: 60_000 }, async () => {
    const bin = path.join(ROOT, 'bin', 'kubectl-chainnode')
    const bundle = 'examples/bundles/config-change-restart.tgz'
    const [text, json] = await Promise.all([
      runCli(['doctor', '--bundle', bundle], { bin, env: { KUBECTL_CHAINNODE_COLUMNS: '300' } }),
      runCli(['doctor', '--bundle', bundle, '-o', 'json'], { bin }),
    ])
    expect(text.stdout).toContain('Docs:     kubectl chainnode rules explain config-change-restart')
    expect(text.stdout).toContain('kubectl chainnode config-hash cfg-0 -n sc-config-change-restart shows what changed')
    expect(text.stdout).not.toMatch(/(?<!kubectl )chainnode (rules|config-hash|timeline) /)
    expect(json.stdout).not.toContain('kubectl chainnode config-hash')
  })

  it('as a plugin on an 80-column terminal, the longer hints still fit', { timeout: 60_000 }, async () => {
    const bin = path.join(ROOT, 'bin', 'kubectl-chainnode')
    const { stdout } = await runCli(['doctor', '--bundle', 'examples/bundles/signer-discovery-timeout.tgz'], { bin, env: { KUBECTL_CHAINNODE_COLUMNS: '80' } })
    expect(stdout).toContain('kubectl chainnode')
    for (const line of stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80)
  })

  it('fills the node into actions instead of a placeholder', { timeout: 60_000 }, async () => {
    const { stdout } = await runCli(['doctor', '--bundle', 'examples/bundles/leader-election.tgz'], { env: { KUBECTL_CHAINNODE_COLUMNS: '300' } })
    expect(stdout).toContain('kubectl get lease le.cosmopilot.cosmopilot.voluzi.com -n sc-leader-election')
    expect(stdout).not.toMatch(/<operator namespace>|<node>|\bNAME\b/)
    // Every rule's action, given a node, names it and leaves no placeholder a user would have to fill.
    const on = { node: { kind: 'ChainNode', namespace: 'ns-x', name: 'node-x' }, subject: { kind: 'ChainNode', namespace: 'ns-x', name: 'node-x' } }
    for (const id of ['rpc-unreachable', 'consensus-failure', 'node-error', 'signer-unhealthy', 'config-change-restart']) {
      const rule = RULES.find((r) => r.id === id)!
      const action = rule.action({ target: 'pod/node-x:26657', kind: 'panic', verdict: 'restarted-unexpected' } as never, on)
      expect(action, id).toContain('node-x -n ns-x')
      expect(action, id).not.toMatch(/<node>|\bNAME\b/)
    }
  })

  it('markdown carries the rule page title, not a path inside our package', { timeout: 60_000 }, async () => {
    const { stdout } = await runCli(['doctor', '--bundle', 'examples/bundles/leader-election.tgz', '-o', 'markdown'])
    expect(stdout).toContain(`- **Docs:** \`chainnode rules explain leader-election\`: ${RULES.find((r) => r.id === 'leader-election')!.title}`)
    expect(stdout).not.toContain('docs/rules/')
  })
})
