import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, runCli } from '../helpers/cli.js'
import { schemaErrors } from '../helpers/schema.js'

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
const tmp = mkdtempSync(path.join(tmpdir(), 'cli-'))
const unreachable = path.join(tmp, 'unreachable.yaml')
writeFileSync(
  unreachable,
  'apiVersion: v1\nkind: Config\ncurrent-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]\nusers: [{name: u, user: {token: t}}]\n',
)

/** A user error is exactly one line on stderr, never a stack trace. */
function expectOneLineError(stderr: string, pattern: RegExp) {
  const lines = stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^error: /)
  expect(lines[0]).toMatch(pattern)
  expect(stderr).not.toMatch(/^\s+at /m)
}

describe('the command-line contract', () => {
  it('prints its version', async () => {
    const { code, stdout } = await runCli(['--version'])
    expect(code).toBe(0)
    expect(stdout).toMatch(new RegExp(`^kubectl-chainnode/${pkg.version.replace(/\./g, '\\.')} linux-`))
  })

  it('lists every command in --help', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    for (const command of ['doctor', 'status', 'describe', 'events', 'logs', 'collect', 'rules']) expect(stdout).toMatch(new RegExp(`^\\s+${command}\\s`, 'm'))
  })

  it('answers a bad flag with one line and exit code 2', async () => {
    const { code, stderr } = await runCli(['doctor', 'x', '--no-such-flag'])
    expect(code).toBe(2)
    expectOneLineError(stderr, /unknown flag: --no-such-flag/)
  })

  it('answers a bad option value with one line and exit code 2', async () => {
    const { code, stderr } = await runCli(['doctor', 'x', '-o', 'yaml', '--kubeconfig', unreachable])
    expect(code).toBe(2)
    expectOneLineError(stderr, /yaml/)
  })

  it('answers a missing kubeconfig with one line and exit code 2', async () => {
    const { code, stderr } = await runCli(['doctor', 'x', '--kubeconfig', path.join(tmp, 'nope.yaml')])
    expect(code).toBe(2)
    expectOneLineError(stderr, /kubeconfig .*nope\.yaml does not exist/)
  })

  it('answers no kubeconfig at all with one line and exit code 2', async () => {
    const { code, stderr } = await runCli(['status', 'x'], { env: { HOME: tmp, KUBECONFIG: '' } })
    expect(code).toBe(2)
    expectOneLineError(stderr, /no kubeconfig found/)
  })

  it('answers an unreachable cluster with one line and exit code 3', async () => {
    const { code, stderr } = await runCli(['doctor', 'x', '--kubeconfig', unreachable, '--request-timeout', '5s'])
    expect(code).toBe(3)
    expectOneLineError(stderr, /cannot reach the API server/)
  })

  it('prints the stack trace only with --debug', async () => {
    const { code, stderr } = await runCli(['doctor', 'x', '--kubeconfig', unreachable, '--debug'])
    expect(code).toBe(3)
    expect(stderr).toMatch(/^\s+at /m)
  })

  it('lists the rules as JSON matching the catalogue schema', async () => {
    const { code, stdout } = await runCli(['rules', '-o', 'json'])
    expect(code).toBe(0)
    const catalogue = JSON.parse(stdout)
    expect(schemaErrors('rule-catalogue.schema.json', catalogue)).toEqual([])
    expect(catalogue.rules.map((r: { id: string }) => r.id)).toContain('signer-discovery-timeout')
  })

  it('explains a rule from its docs page, and refuses an unknown one', async () => {
    const ok = await runCli(['rules', 'explain', 'pvc-not-growing'])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('allowVolumeExpansion: true')
    const bad = await runCli(['rules', 'explain', 'no-such-rule'])
    expect(bad.code).toBe(2)
    expectOneLineError(bad.stderr, /unknown rule "no-such-rule"/)
  })
})

describe('oclif.manifest.json', () => {
  it('matches the commands of the registry (regenerate with npm run build)', async () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'oclif.manifest.json'), 'utf8'))
    expect(manifest.version).toBe(pkg.version)
    const { COMMANDS } = await import('../../src/entry/command-index.js')
    expect(Object.keys(manifest.commands).sort()).toEqual(Object.keys(COMMANDS).sort())
    for (const [id, command] of Object.entries(COMMANDS)) {
      const declared = Object.keys({ ...command.baseFlags, ...command.flags }).sort()
      expect(Object.keys(manifest.commands[id].flags).sort(), `flags of ${id}`).toEqual(declared)
      expect(Object.keys(manifest.commands[id].args ?? {}).sort(), `args of ${id}`).toEqual(Object.keys(command.args ?? {}).sort())
      expect(manifest.commands[id].summary, `summary of ${id}`).toBe(command.summary)
    }
  })
})

describe('src/entry/command-index.ts', () => {
  it('has an oclif class for every command of the registry, and completion', async () => {
    const { COMMANDS } = await import('../../src/entry/command-index.js')
    const { COMMANDS: REGISTRY } = await import('../../src/commands/index.js')
    expect(Object.keys(COMMANDS).sort()).toEqual([...Object.keys(REGISTRY).map((words) => words.replace(/ /g, ':')), 'completion'].sort())
  })
})

describe('README command reference', () => {
  it('is what `npm run readme` generates from the commands (run it after changing a command)', () => {
    const generated = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'oclif'), ['readme', '--no-aliases', '--no-source-links', '--dry-run'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    expect(generated.status, generated.stderr).toBe(0)
    const section = (text: string) => text.slice(text.indexOf('<!-- commands -->\n'), text.indexOf('<!-- commandsstop -->'))
    expect(section(generated.stdout)).not.toBe('')
    expect(section(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))).toBe(section(generated.stdout))
  })
})
