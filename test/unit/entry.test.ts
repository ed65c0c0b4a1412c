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
