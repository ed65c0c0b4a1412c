import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { load } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { CLI, ROOT, runCli } from '../helpers/cli.js'

const bundle = (name: string) => `examples/bundles/${name}.tgz`

function expectOneLineError(stderr: string, pattern: RegExp) {
  const lines = stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^error: /)
  expect(lines[0]).toMatch(pattern)
}

describe('help, version and mistakes, the kubectl way', () => {
  it('-h is --help, for the tool and for a command', async () => {
    const top = await runCli(['-h'])
    expect(top.code).toBe(0)
    expect(top.stdout).toMatch(/^COMMANDS$/m)
    const doctor = await runCli(['doctor', '-h'])
    expect(doctor.code).toBe(0)
    expect(doctor.stdout).toMatch(/^USAGE\n {2}\$ kubectl-chainnode doctor/m)
  })

  it('version is a command, as kubectl version', async () => {
    const flag = await runCli(['--version'])
    const command = await runCli(['version'])
    expect(command.code).toBe(0)
    expect(command.stdout).toBe(flag.stdout)
    const json = JSON.parse((await runCli(['version', '-o', 'json'])).stdout)
    expect(json.version).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version)
  })

  it('a typo gets a suggestion, on one line like every other error', async () => {
    const typo = await runCli(['doctr'])
    expect(typo.code).toBe(2)
    expectOneLineError(typo.stderr, /unknown command "doctr"; did you mean "doctor"\?/)
    const sub = await runCli(['pprof', 'heapp'])
    expectOneLineError(sub.stderr, /unknown command "pprof heapp"; did you mean "pprof heap"\?/)
    const nothing = await runCli(['zzzzzzzz'])
    expect(nothing.code).toBe(2)
    expectOneLineError(nothing.stderr, /unknown command "zzzzzzzz"; see chainnode --help/)
  })

  it('a missing argument says which, with an example', async () => {
    const { code, stderr } = await runCli(['rules', 'explain'])
    expect(code).toBe(2)
    expectOneLineError(stderr, /^error: missing ID \(rule id\); e\.g\. kubectl-chainnode rules explain not-syncing$/)
  })

  it('describes topics as topics, and cites no spec section in any help', async () => {
    const { stdout } = await runCli(['--help'])
    expect(stdout).toMatch(/^ {2}pprof +Profiles of node-utils/m)
    const manifest = readFileSync(path.join(ROOT, 'oclif.manifest.json'), 'utf8')
    expect(manifest).not.toMatch(/spec §/)
  })
})

describe('status and events, kubectl get style', () => {
  it('status shows the essential columns, within 120; -o wide adds the rest', async () => {
    const plain = await runCli(['status', '--bundle', bundle('healthy')])
    const header = plain.stdout.split('\n')[0].split(/\s{2,}/)
    expect(header).toEqual(['NAME', 'STATUS', 'VERSION', 'CHAINID', 'LATESTHEIGHT', 'POD', 'READY', 'RESTARTS', 'CONFIG', 'AGE'])
    for (const line of plain.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(120)
    const wide = await runCli(['status', '--bundle', bundle('healthy'), '-o', 'wide'])
    expect(wide.stdout.split('\n')[0]).toMatch(/\bIP\b.*\bVALIDATOR\b.*\bDATAUSAGE\b.*\bRECREATED\b.*\bAGE$/)
  })

  it('--no-headers drops the header line only', async () => {
    const withHeaders = await runCli(['status', '--bundle', bundle('healthy')])
    const without = await runCli(['status', '--bundle', bundle('healthy'), '--no-headers'])
    expect(without.stdout.split('\n')).toEqual(withHeaders.stdout.split('\n').slice(1))
    const events = await runCli(['events', '--bundle', bundle('image-pull'), '--no-headers'])
    expect(events.stdout).not.toMatch(/LAST SEEN/)
    expect(events.stdout).toMatch(/ImagePullBackOff/)
  })

  it('-l selects nodes by label; -o yaml and -o json give the same document', async () => {
    const yaml = load((await runCli(['status', '--bundle', bundle('healthy'), '-l', 'nodeset=hub', '-o', 'yaml'])).stdout) as { nodes: { name: string }[] }
    const json = JSON.parse((await runCli(['status', '--bundle', bundle('healthy'), '-l', 'nodeset=hub', '-o', 'json'])).stdout)
    expect(yaml.nodes.map((n) => n.name)).toEqual(['hub-fullnodes-0', 'hub-fullnodes-1'])
    expect(yaml).toEqual(json)
    const events = load((await runCli(['events', '--bundle', bundle('image-pull'), '-o', 'yaml'])).stdout) as { kind: string; events: unknown[] }
    expect(events.kind).toBe('EventList')
    expect(events.events.length).toBeGreaterThan(0)
  })

  it('--watch is for a live cluster: on a bundle it is an input error', async () => {
    for (const command of ['status', 'events']) {
      const { code, stderr } = await runCli([command, '--bundle', bundle('healthy'), '-w'])
      expect(code).toBe(2)
      expectOneLineError(stderr, /--watch needs a live cluster/)
    }
  })

  it('events and describe count ages to when the bundle was collected', async () => {
    const events = await runCli(['events', '--bundle', bundle('not-syncing')])
    // Spread over 25 minutes, last seen 10 minutes before collection; against the clock this read "2d".
    expect(events.stdout).toMatch(/^10m \(x151 over 35m\) +Warning +Unhealthy/m)
    const describe = await runCli(['describe', 'stuck-0', '--bundle', bundle('not-syncing')])
    expect(describe.stdout).toMatch(/Unhealthy +10m \(x151 over 35m\)/)
  })
})

describe('describe aligns like kubectl describe', () => {
  it('lines the Conditions table up on its longest type, and each block of fields on its own', async () => {
    const { stdout } = await runCli(['describe', 'pull-0', '--bundle', bundle('image-pull')])
    expect(stdout).toMatch(/^ {2}Type {24}Status\n {2}PodReadyToStartContainers {3}True\n {2}Initialized {17}True$/m)
    expect(stdout).toMatch(/^ {4}App: {17}gaiad\n {4}Check Gov Upgrades: {2}true$/m)
    expect(stdout).toMatch(/^Name: {9}pull-0\nNamespace: {4}sc-image-pull$/m)
  })
})

describe('config-hash diff', () => {
  it('names the nodes of a bundle that holds several', async () => {
    const { code, stderr } = await runCli(['config-hash', 'diff', bundle('config-change-restart'), bundle('config-change-restart')])
    expect(code).toBe(2)
    expectOneLineError(stderr, /holds 2 nodes: cfg-0, cfg-1; pick one with --node, e\.g\. --node cfg-0/)
  })
})

/** Run the CLI on a pseudo-terminal (util-linux `script`), 200 columns wide; what the terminal shows comes back. */
function onTerminal(args: string[], redirect: string, columns = 200): string {
  const line = `stty cols ${columns} rows 50; ${CLI} ${args.join(' ')} ${redirect}`
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', KUBECONFIG: '' }
  delete env.CI
  return execFileSync('script', ['-qec', line, '/dev/null'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 })
}
const hasScript = spawnSync('script', ['--version']).status === 0

// `script` (util-linux) gives the CLI a real terminal; without it there is no terminal to test on.
describe.skipIf(!hasScript)('on a terminal', () => {
  it('a spinner on stderr says what of the bundle is being read; a pipe gets none', async () => {
    const shown = onTerminal(['status', '--bundle', bundle('healthy')], '>/dev/null')
    // What is being read is named; the entry being extracted follows when a frame is drawn during extraction.
    expect(shown).toMatch(/reading bundle examples\/bundles\/healthy\.tgz/)
    const piped = await runCli(['status', '--bundle', bundle('healthy')])
    expect(piped.stderr).toBe('')
  })

  it('tables are never cut on a terminal, as kubectl cuts no cell (the terminal wraps a long row); a pipe gets the same lines', async () => {
    const narrow = onTerminal(['events', '--bundle', bundle('image-pull')], '2>/dev/null', 60)
      .split(/\r?\n/)
      .filter(Boolean)
    expect(narrow.some((l) => l.includes('…'))).toBe(false)
    expect(Math.max(...narrow.map((l) => l.length))).toBeGreaterThan(120)
    const piped = await runCli(['events', '--bundle', bundle('image-pull')])
    expect(narrow).toEqual(piped.stdout.split('\n').filter(Boolean))
  })

  it('doctor wraps at an 80-column terminal; status -o wide is never cut, as kubectl get -o wide', () => {
    const doctor = onTerminal(['doctor', '--bundle', bundle('signer-discovery-timeout'), '--fail-on', 'never'], '2>/dev/null', 80)
    for (const l of doctor.split(/\r?\n/)) expect(l.length, l).toBeLessThanOrEqual(80)
    expect(doctor).toMatch(/ERROR\s+remote signer discovery was not confirmed/)
    const wide = onTerminal(['status', '--bundle', bundle('healthy'), '-o', 'wide'], '2>/dev/null', 80).split(/\r?\n/)
    expect(wide.some((l) => l.length > 80)).toBe(true)
    expect(wide.some((l) => l.endsWith('…'))).toBe(false)
    expect(wide[0]).toMatch(/CATCHING UP\s+AGE$/)
  })
})
