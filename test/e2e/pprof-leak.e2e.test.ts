import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { useCluster } from '../cluster/kube.js'
import { forwardPort } from '../cluster/portforward.js'
import { runCli } from '../helpers/cli.js'
import { seedNode } from './seed-node.js'

// Leak hunting against a real leaking Go process (test/leakgen, built by scripts/build-tools.sh)
// behind a kwok port-forward on Pod port 6666, compared with the real `go tool pprof`.
const NS = 't-pprof-leak'
const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
const dir = mkdtempSync(path.join(tmpdir(), 'pprof-leak-e2e-'))
let leakgen: ChildProcess | undefined

/** Rows of `go tool pprof -top` text: [flat, cum, name]. */
function pprofRows(text: string): [string, string, string][] {
  return text
    .split('\n')
    .filter((line) => /^\s*-?[\d.]+\w*\s+-?[\d.]+%\s+-?[\d.]+%\s+-?[\d.]+\w*\s+-?[\d.]+%\s+\S/.test(line))
    .map((line) => {
      const parts = line.trim().split(/\s+/)
      return [parts[0]!, parts[3]!, parts.slice(5).join(' ')]
    })
}

function goTop(args: string[]): string {
  const go = spawnSync('go', ['tool', 'pprof', '-top', ...args], { encoding: 'utf8' })
  expect(go.status, go.stderr).toBe(0)
  return go.stdout
}

/** The table printed under a "what changed ..." title. */
function section(stdout: string, title: RegExp): string {
  const start = stdout.search(title)
  expect(start, stdout).toBeGreaterThanOrEqual(0)
  const rest = stdout.slice(start)
  const next = rest.slice(1).search(/^what changed/m)
  return next < 0 ? rest : rest.slice(0, next + 1)
}

describe('pprof against a leaking process', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    const portFile = path.join(dir, 'leakgen.port')
    leakgen = spawn(path.join(inject('binDir'), 'leakgen'), ['-port', '0', '-port-file', portFile, '-every', '50ms'], { stdio: 'ignore' })
    for (let i = 0; i < 100 && !existsSync(portFile); i++) await new Promise((r) => setTimeout(r, 50))
    await seedNode(NS, 'leaky-0', { containers: [{ name: 'node', image: 'ghcr.io/cosmos/gaia:v25.2.0' }] })
    await forwardPort(NS, 'leaky-0', 6666, Number(readFileSync(portFile, 'utf8')))
  })
  afterAll(() => leakgen?.kill())

  it('heap --growth shows the leaking function first, in use and allocated, equal to go tool pprof -diff_base', async () => {
    const file = path.join(dir, 'heap.pb.gz')
    const result = await runCli(['pprof', 'heap', 'leaky-0', '-n', NS, '--growth', '2s', '-o', file, '--top', '1000'], { env: env() })
    expect(result.code, result.stderr).toBe(0)
    const base = path.join(dir, 'heap.base.pb.gz')
    expect(result.stderr).toContain(`saved ${base}`)
    expect(result.stderr).toContain(`saved ${file}`)
    const inuse = section(result.stdout, /^what changed in 2s \(inuse_space\)/m)
    expect(pprofRows(inuse)[0]![2]).toBe('main.(*leakyCache).store')
    expect(pprofRows(inuse)).toEqual(pprofRows(goTop(['-sample_index=inuse_space', '-diff_base', base, file])))
    const alloc = section(result.stdout, /^what changed in 2s \(alloc_space\)/m)
    expect(pprofRows(alloc)).toEqual(pprofRows(goTop(['-sample_index=alloc_space', '-diff_base', base, file])))
    expect(pprofRows(alloc).map((r) => r[2])).toContain('main.(*leakyCache).store')

    const top = await runCli(['pprof', 'top', file, '--base', base, '--top', '1000'], { env: env() })
    expect(top.code, top.stderr).toBe(0)
    expect(pprofRows(top.stdout)).toEqual(pprofRows(goTop(['-diff_base', base, file])))
  })

  it('goroutine --growth names the leak and the stack that grew', async () => {
    const file = path.join(dir, 'goroutine.pb.gz')
    const result = await runCli(['pprof', 'goroutine', 'leaky-0', '-n', NS, '--growth', '2s', '-o', file, '--top', '1000'], { env: env() })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^goroutines: \d+ -> \d+ \(\+\d+\) in 2s$/m)
    expect(result.stdout).toMatch(/^goroutine leak suspected: /m)
    const grown = result.stdout.split('\n').find((l) => /^\s+\+\d+\s+\d+\s+\d+\s+\S/.test(l))
    expect(grown).toMatch(/main\.parkForever$/)
    const diff = section(result.stdout, /^what changed in 2s:/m)
    expect(pprofRows(diff)).toEqual(pprofRows(goTop(['-diff_base', path.join(dir, 'goroutine.base.pb.gz'), file])))
  })

  it.each([['1'], ['2']])('goroutine --text %s groups goroutines by stack and shows the leak across two dumps', async (form) => {
    const file = path.join(dir, `goroutine-${form}.txt`)
    const one = await runCli(['pprof', 'goroutine', 'leaky-0', '-n', NS, '--text', form, '-o', file], { env: env() })
    expect(one.code, one.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toMatch(form === '1' ? /^goroutine profile: total \d+/ : /^goroutine \d+ \[/)
    const head = new RegExp(`^(\\d+) goroutines in \\d+ distinct stacks \\(debug=${form}\\)$`, 'm')
    expect(one.stdout).toMatch(head)
    // The largest group is the parked leak, with its state in the debug=2 form.
    const largest = one.stdout.split('\n\n')[1]!
    expect(largest).toContain('main.parkForever')
    if (form === '2') expect(largest).toMatch(/\[\d+ chan receive\]/)

    const growth = await runCli(['pprof', 'goroutine', 'leaky-0', '-n', NS, '--text', form, '--growth', '1s', '-o', path.join(dir, `g-${form}.txt`)], {
      env: env(),
    })
    expect(growth.code, growth.stderr).toBe(0)
    expect(growth.stdout).toMatch(/^goroutine leak suspected: /m)
    expect(growth.stdout.split('\n').find((l) => /^\s+\+\d+/.test(l))).toMatch(/main\.parkForever$/)
  })

  it.each([
    ['allocs', 'alloc_space'],
    ['block', 'delay'],
    ['mutex', 'delay'],
  ])('%s captures and prints the same top table as go tool pprof', async (kind, type) => {
    const file = path.join(dir, `${kind}.pb.gz`)
    const result = await runCli(['pprof', kind, 'leaky-0', '-n', NS, '-o', file, '--top', '1000'], { env: env() })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(`Type: ${type}`)
    expect(pprofRows(result.stdout)).toEqual(pprofRows(goTop([file])))
    expect(pprofRows(result.stdout).length).toBeGreaterThan(0)
  })

  it.each([['0s'], ['2h'], ['soon']])('rejects --growth %s with one line and exit 2', async (growth) => {
    const result = await runCli(['pprof', 'heap', 'leaky-0', '-n', NS, '--growth', growth], { env: env() })
    expect(result.code).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })
})
