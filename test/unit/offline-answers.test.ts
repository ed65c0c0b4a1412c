import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { schemaErrors } from '../helpers/schema.js'
import { RULES } from '../../src/rules/index.js'

const bundle = (name: string) => `examples/bundles/${name}.tgz`

/** A user error is exactly one line on stderr starting with "error: ". */
function expectOneLineError(stderr: string, pattern: RegExp) {
  const lines = stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^error: /)
  expect(lines[0]).toMatch(pattern)
}

describe('doctor on an empty scope does not report health', () => {
  it('a set the bundle does not hold is an input error naming what it holds', async () => {
    const { code, stdout, stderr } = await runCli(['doctor', '--bundle', bundle('image-pull'), '--set', 'nosuchset'])
    expect(code).toBe(2)
    expect(stdout).not.toMatch(/No problems found/)
    expectOneLineError(stderr, /ChainNodeSet "nosuchset" .*it holds: sc-image-pull\/pull-0/)
  })

  it('a rule selection that leaves no rule is an input error', async () => {
    const { code, stdout, stderr } = await runCli(['doctor', '--bundle', bundle('image-pull'), '--rule', 'image-pull', '--skip-rule', 'image-pull'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expectOneLineError(stderr, /leave no rule to check/)
  })

  it('an unknown node lists the nodes of the whole bundle, not of the narrowed one', async () => {
    const { code, stderr } = await runCli(['doctor', 'nosuchnode', '--bundle', bundle('image-pull')])
    expect(code).toBe(2)
    expectOneLineError(stderr, /chainnode "nosuchnode" is not in bundle .*it holds: sc-image-pull\/pull-0$/)
  })

  it('a namespace with no nodes is an input error too', async () => {
    const { code, stderr } = await runCli(['doctor', '--all', '-n', 'nosuchns', '--bundle', bundle('image-pull')])
    expect(code).toBe(2)
    expectOneLineError(stderr, /no ChainNodes found in namespace nosuchns/)
  })
})

describe('doctor text report', () => {
  it('says when the bundle was collected and lists the rules only with --debug', async () => {
    const plain = await runCli(['doctor', '--bundle', bundle('not-syncing')])
    expect(plain.stdout).toMatch(/^Read from bundle examples\/bundles\/not-syncing\.tgz, collected 2026-11-22T13:20:08Z\.$/m)
    expect(plain.stdout).not.toMatch(/Checked \d+ rules/)
    const debug = await runCli(['doctor', '--bundle', bundle('not-syncing'), '--debug'])
    expect(debug.stdout).toMatch(new RegExp(`Checked ${RULES.length} rules: `))
  })

  it('folds repeated evidence like Events, in time order, one time format, within a 120-column terminal', async () => {
    const { stdout } = await runCli(['doctor', '--bundle', bundle('snapshot-verify')], { env: { KUBECTL_CHAINNODE_COLUMNS: '120' } })
    // Wrapped under itself at the terminal's width, the repeat count ends the evidence line.
    expect(stdout).toMatch(/IntegrityCheckStart on ChainNode\/snap-0: .*\n {10}.*\(x8 over 12h\)$/m)
    expect(stdout.match(/Event Normal IntegrityCheckStart/g)).toHaveLength(1)
    const times = [...stdout.matchAll(/^ {6}(\d{4}-\S+) {2}/gm)].map((m) => m[1])
    expect(times.length).toBeGreaterThan(1)
    for (const at of times) expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect([...times].sort()).toEqual(times)
    for (const line of stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(120)
  })

  it('keeps the full evidence in JSON, with the docs page of each finding', async () => {
    const { stdout } = await runCli(['doctor', '--bundle', bundle('config-change-restart'), '-o', 'json'])
    const report = JSON.parse(stdout)
    expect(schemaErrors('doctor-report.schema.json', report)).toEqual([])
    const findings = report.clusters[0].findings
    const deferred = findings.find((f: { node: { name: string } }) => f.node.name === 'cfg-1')
    expect(deferred.docs).toBe('docs/rules/config-change-restart.md')
    expect(deferred.evidence.filter((e: { kind: string }) => e.kind === 'log')).toHaveLength(5)
    expect(Math.max(...deferred.evidence.map((e: { text: string }) => e.text.length))).toBeGreaterThan(120)
  })

  it('points each finding to its documentation', async () => {
    const { stdout } = await runCli(['doctor', '--bundle', bundle('image-pull')])
    expect(stdout).toMatch(/^ {4}Docs: +chainnode rules explain image-pull$/m)
  })
})

describe('logs on a bundle', () => {
  const stuck = ['logs', 'stuck-0', '--bundle', bundle('not-syncing')]

  it('--since counts back from when the bundle was collected', async () => {
    const all = await runCli(stuck.concat('--tail', '-1'))
    const recent = await runCli(stuck.concat('--tail', '-1', '--since', '15m'))
    const none = await runCli(stuck.concat('--since', '1s'))
    const count = (text: string) => text.trim().split('\n').length
    expect(count(recent.stdout)).toBeGreaterThan(0)
    expect(count(recent.stdout)).toBeLessThan(count(all.stdout))
    // The app log ends 11 minutes before collection (13:08:59 → 13:20:08).
    for (const line of recent.stdout.trim().split('\n')) expect(line >= '2026-11-22T13:05:08').toBe(true)
    expect(none.stdout).toMatch(/^\(no log of app in the bundle since 1s\)$/m)
  })

  it('--tail 0 prints nothing and --tail -1 prints every line', async () => {
    const zero = await runCli(stuck.concat('--tail', '0'))
    expect(zero.code).toBe(0)
    expect(zero.stdout).toBe('')
    const every = await runCli(stuck.concat('--tail', '-1'))
    const five = await runCli(stuck.concat('--tail', '5'))
    expect(every.code).toBe(0)
    expect(every.stdout.trim().split('\n').length).toBeGreaterThan(100)
    expect(five.stdout.trim().split('\n')).toEqual(every.stdout.trim().split('\n').slice(-5))
  })

  it('-p without a previous container is an error, as kubectl says it', async () => {
    const { code, stdout, stderr } = await runCli(stuck.concat('-p'))
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expectOneLineError(stderr, /previous terminated container "app" in pod "stuck-0" not found/)
  })
})
