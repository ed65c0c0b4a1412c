import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { useCluster } from '../cluster/kube.js'
import { forwardPort } from '../cluster/portforward.js'
import { runCli } from '../helpers/cli.js'
import { seedNode } from './seed-node.js'

const NS = 't-pprof'
const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
const dir = mkdtempSync(path.join(tmpdir(), 'pprof-e2e-'))

/** Rows of `go tool pprof -top` text: [flat, cum, name]. */
function pprofRows(text: string): [string, string, string][] {
  return text
    .split('\n')
    .filter((line) => /^\s*-?[\d.]+\w*\s+[\d.]+%\s+[\d.]+%\s+-?[\d.]+\w*\s+[\d.]+%\s+\S/.test(line))
    .map((line) => {
      const parts = line.trim().split(/\s+/)
      return [parts[0], parts[3], parts.slice(5).join(' ')]
    })
}

describe('pprof over a real port-forward to net/http/pprof', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await seedNode(NS, 'html-0', { containers: [{ name: 'app', image: 'ghcr.io/cosmos/gaia:v25.2.0' }] })
    await forwardPort(NS, 'html-0', 6666, inject('plainHttpPort'))
  })

  it('captures a heap profile and prints the same top table as go tool pprof', async () => {
    const file = path.join(dir, 'heap.pb.gz')
    const result = await runCli(['pprof', 'heap', 'fullnode-0', '-n', 'sc-healthy', '-o', file, '--top', '1000'], { env: env() })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/only the node-utils process .* sensitive/)
    expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
    expect(result.stdout).toMatch(/flat\s+flat%\s+sum%\s+cum\s+cum%/)
    const go = spawnSync('go', ['tool', 'pprof', '-top', file], { encoding: 'utf8' })
    expect(go.status, go.stderr).toBe(0)
    expect(pprofRows(result.stdout)).toEqual(pprofRows(go.stdout))
    expect(pprofRows(result.stdout).length).toBeGreaterThan(0)
  })

  it('captures a CPU profile for --seconds and a trace', async () => {
    const cpu = path.join(dir, 'cpu.pb.gz')
    const profile = await runCli(['pprof', 'profile', 'fullnode-0', '-n', 'sc-healthy', '--seconds', '2', '-o', cpu], { env: env() })
    expect(profile.code, profile.stderr).toBe(0)
    expect(profile.stdout).toMatch(/Type: cpu/)
    const trace = path.join(dir, 'run.trace')
    const traced = await runCli(['pprof', 'trace', 'fullnode-0', '-n', 'sc-healthy', '--seconds', '1', '-o', trace], { env: env() })
    expect(traced.code, traced.stderr).toBe(0)
    expect(readFileSync(trace).subarray(0, 5).toString()).toBe('go 1.')
    expect(traced.stdout).toContain(`go tool trace ${trace}`)
  })

  it('names the default file after namespace, pod, kind and time', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'pprof-default-'))
    const result = await runCli(['pprof', 'heap', 'fullnode-0', '-n', 'sc-healthy'], { env: env(), cwd })
    expect(result.code, result.stderr).toBe(0)
    expect(readdirSync(cwd)).toEqual([expect.stringMatching(/^sc-healthy_fullnode-0_heap_\d{8}T\d{6}Z\.pb\.gz$/)])
  })

  it('diagnoses a node whose port 6666 is taken, and leaves no file', async () => {
    const file = path.join(dir, 'taken.pb.gz')
    const result = await runCli(['pprof', 'heap', 'prof-0', '-n', 'sc-profiling-unavailable', '-o', file], { env: env() })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/profiling-unavailable/)
    expect(result.stderr).toMatch(/port 6666 conflict/)
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^error: (nothing answers on Pod port 6666|expected a gzipped pprof profile)/)
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
  })

  it('refuses an answer that is not a profile, and leaves no file', async () => {
    const file = path.join(dir, 'html.pb.gz')
    const result = await runCli(['pprof', 'heap', 'html-0', '-n', NS, '-o', file], { env: env() })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/expected a gzipped pprof profile but got an HTML page/)
    expect(existsSync(file)).toBe(false)
  })

  it('refuses a profile larger than the limit while it streams, and removes the partial file', async () => {
    const file = path.join(dir, 'too-big.pb.gz')
    const result = await runCli(['pprof', 'heap', 'fullnode-0', '-n', 'sc-healthy', '-o', file], {
      env: { ...env(), KUBECTL_CHAINNODE_MAX_PROFILE_SIZE: '1KiB' },
    })
    expect(result.code, result.stderr).toBe(2)
    const last = result.stderr.trim().split('\n').at(-1)
    expect(last).toMatch(/^error: the heap from fullnode-0 \(more than \d+ bytes\) is over the limit of the size of a profile \(1 KiB\)/)
    expect(last).toMatch(/KUBECTL_CHAINNODE_MAX_PROFILE_SIZE=4KiB/)
    expect(result.stderr).not.toMatch(/^\s+at /m)
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
  })

  it.each([['0'], ['-5'], ['100000']])('rejects --seconds %s with one line and exit 2', async (seconds) => {
    const result = await runCli(['pprof', 'profile', 'fullnode-0', '-n', 'sc-healthy', `--seconds=${seconds}`], { env: env() })
    expect(result.code).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })
})
