import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

// The built entry point (dist/bundle/entry.cjs) as the npm bins start it: one place for version,
// completion, help, the quick start or oclif, and exit codes.
const stateDir = mkdtempSync(path.join(tmpdir(), 'entry-test-'))
const run = (argv: string[], bin = 'run.js') =>
  spawnSync(process.execPath, [path.join(ROOT, 'bin', bin), ...argv], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', KUBECTL_CHAINNODE_STATE_DIR: stateDir, KUBECONFIG: path.join(stateDir, 'none') },
  })
const USER_AGENT = /^kubectl-chainnode\/\d+\.\d+\.\d+\S* linux-(x64|arm64) node-v\d+\.\d+\.\d+\n$/

describe('the entry point', () => {
  it('answers --version and -v, and the version command says the same', () => {
    const version = run(['--version'])
    expect(version.stdout).toMatch(USER_AGENT)
    expect(version.status).toBe(0)
    expect(run(['-v']).stdout).toBe(version.stdout)
    expect(run(['version']).stdout).toBe(version.stdout)
    expect(JSON.parse(run(['version', '-o', 'json']).stdout)).toMatchObject({ name: 'kubectl-chainnode', node: process.version })
  })

  it('completes commands offline, as cobra does, through kubectl_complete-chainnode too', () => {
    const direct = run(['__complete', 'st'])
    expect(direct.stdout).toBe('status\n:4\n')
    expect(direct.status).toBe(0)
    expect(run(['st'], 'kubectl_complete-chainnode').stdout).toBe(direct.stdout)
  })

  it('completes rule ids for --rule, --skip-rule and rules explain, and the container roles for -c, offline', () => {
    expect(run(['__complete', 'doctor', '--rule', 'signer-p']).stdout).toBe('signer-pubkey\n:4\n')
    expect(run(['__complete', 'doctor', '--skip-rule', 'image']).stdout).toBe('image-pull\n:4\n')
    expect(run(['__complete', 'rules', 'explain', 'leader']).stdout).toBe('leader-election\n:4\n')
    // No cluster to ask for the Pod's containers: the roles logs knows still come.
    expect(run(['__complete', 'logs', 'val-0', '-c', '']).stdout).toBe('app\nnode-utils\ngate\noperator\nall\n:4\n')
  })

  it('completes the -o values of status, jsonpath= among them', () => {
    expect(run(['__complete', 'status', '-o', 'j']).stdout).toBe('json\njsonpath=\n:4\n')
  })

  it('prints status -o jsonpath as kubectl get: the template over a List of ChainNodes, no newline added', () => {
    const bundle = path.join(ROOT, 'examples', 'bundles', 'healthy.tgz')
    const names = run(['status', '--bundle', bundle, '-o', 'jsonpath={.kind}:{.items[*].metadata.name}'])
    expect(names.stdout).toBe('List:fullnode-0 hub-fullnodes-0 hub-fullnodes-1')
    expect(names.status).toBe(0)
    // Through oclif (a flag the quick start leaves to it) too, sorted first as kubectl does.
    const rows = run([
      'status',
      '--bundle',
      bundle,
      '--sort-by',
      '{.metadata.name}',
      '-A',
      '-ojsonpath={range .items[*]}{.metadata.name}{"\\t"}{.status.latestHeight}{"\\n"}{end}',
    ])
    expect(rows.stdout).toBe('fullnode-0\t33138000\nhub-fullnodes-0\t30998000\nhub-fullnodes-1\t30998000\n')
    // With a NAME, the ChainNode itself, as kubectl get NAME -o jsonpath.
    expect(run(['status', 'fullnode-0', '--bundle', bundle, '-o=jsonpath={.metadata.name} {.status.phase}']).stdout).toBe('fullnode-0 Running')
  })

  it.each([
    [['-o', 'jsonpath={range .items[*]}{.metadata.name}'], 'error: -o jsonpath: range without end in'],
    [['-o', 'jsonpath={.items[7]}'], 'error: -o jsonpath: array index out of bounds: index 7, length 3'],
    [['-o', 'jsonpath'], 'error: Expected --output=jsonpath to be one of: text, wide, name, json, yaml, jsonpath=TEMPLATE; see --help'],
    [['-o', 'jsonpth={.a}'], 'error: Expected --output=jsonpth={.a} to be one of'],
  ])('says a bad status %j in one line, exit 2', (argv, said) => {
    const result = run(['status', '--bundle', path.join(ROOT, 'examples', 'bundles', 'healthy.tgz'), ...argv])
    expect(result.stderr.startsWith(said)).toBe(true)
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(result.stdout).toBe('')
    expect(result.status).toBe(2)
  })

  it('says a mistyped command in one line with a suggestion, exit 2', () => {
    const result = run(['statsu'])
    expect(result.stderr).toBe('error: unknown command "statsu"; did you mean "status"? See chainnode --help\n')
    expect(result.status).toBe(2)
  })

  it('runs a plain line without oclif and a line with a subcommand oclif alone knows', () => {
    const rules = run(['rules', 'explain', 'image-pull'])
    expect(rules.stdout).toMatch(/^# image-pull/)
    expect(rules.status).toBe(0)
    const unknownRule = run(['rules', 'explain', 'no-such-rule'])
    expect(unknownRule.stderr).toBe('error: unknown rule "no-such-rule"; list the rules with: chainnode rules\n')
    expect(unknownRule.status).toBe(2)
    const diff = run(['config-hash', 'diff'])
    expect(diff.stderr).toMatch(/^error: missing BEFORE/)
    expect(diff.status).toBe(2)
  })

  it('says a kubeconfig that is not there in one line, exit 2', () => {
    const result = run(['status', 'x', '--kubeconfig', path.join(stateDir, 'missing')])
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.status).toBe(2)
  })
})
