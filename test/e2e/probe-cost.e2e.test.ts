/**
 * What the chain probe costs on real CometBFT nodes (scenarios sc-validators, sc-chain-halt and the rest of the fleet),
 * counted from --debug: one port-forward per Pod port for a whole run, whatever the probes read over it (/status and
 * /net_info, the second reading, the commits of the signing read, the Cosmos SDK queries).
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'

const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })

/**
 * How many port-forwards a doctor run's chain probe opened, per Pod port, and the ports each one carried ("ns/pod:26657,8000").
 * The signer checks (8080, 26659) are left out: each of them is one connection of its own by design (the gate test's
 * bytes are the first the port sends).
 */
async function forwards(args: string[]): Promise<Map<string, number> & { connections: string[]; again: string[] }> {
  const result = await runCli(['doctor', ...args, '--debug', '-o', 'json', '--fail-on', 'never'], { env: env() })
  // 3: the fleet holds nodes doctor cannot measure whole (no chain behind their Pods).
  expect([0, 3], result.stderr.slice(-2000)).toContain(result.code)
  expect(JSON.parse(result.stdout).clusters[0].nodes.length).toBeGreaterThan(0)
  const counts = Object.assign(new Map<string, number>(), { connections: [] as string[], again: [] as string[] })
  for (const line of result.stderr.split('\n')) {
    const [, pod, ports, again] = /^debug: port-forward (\S+):([\d,]+)( \(again: .*\))?$/.exec(line) ?? []
    if (!pod || /^(8080|26659)$/.test(ports)) continue
    // A port asked once more because its forward closed with no word (the API server can cut it before the Pod side's
    // words arrive, under load): the probe's one retry, not a second reading that could have shared the first forward.
    if (again) {
      counts.again.push(`${pod}:${ports}`)
      continue
    }
    counts.connections.push(`${pod}:${ports}`)
    for (const port of ports.split(',')) counts.set(`${pod}:${port}`, (counts.get(`${pod}:${port}`) ?? 0) + 1)
  }
  return counts
}

describe('chain probe cost', () => {
  beforeAll(async () => {
    await refreshScenarios()
  })

  it('a validator: its status, peers, the signing window and the chain modules over one port-forward per node', async () => {
    const counts = await forwards(['val-0', '-n', 'sc-validators', '--signing-window', '60'])
    expect(counts.get('sc-validators/val-0:26657')).toBe(1)
    expect([...counts.values()].every((n) => n === 1)).toBe(true)
    // Its RPC and node-utils ports over one port-forward: one connection and upgrade for the node, not one per port.
    expect(counts.connections).toContain('sc-validators/val-0:26657,8000')
  })

  it('the whole fleet: every Pod port probed is forwarded once', async () => {
    const counts = await forwards(['-A'])
    expect(counts.size).toBeGreaterThan(5)
    expect([...counts].filter(([, n]) => n > 1)).toEqual([])
    // At most one retry per port.
    expect(counts.again.filter((port, i) => counts.again.indexOf(port) !== i)).toEqual([])
    // A node's ports share its port-forward: fewer connections than ports forwarded.
    expect(counts.connections.length).toBeLessThan(counts.size)
  })
})
