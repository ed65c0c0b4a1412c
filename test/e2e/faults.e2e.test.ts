import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { startFaultProxy, type FaultProxy } from '../cluster/fault-proxy.js'
import { readClusterState, useCluster } from '../cluster/kube.js'
import { CLI, runCli, type CliResult } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'

let proxy: FaultProxy
const work = mkdtempSync(path.join(tmpdir(), 'faults-'))
const viaProxy = (args: string[], timeoutMs?: number) =>
  runCli(args, { env: { KUBECONFIG: proxy.kubeconfigPath, KUBECTL_CHAINNODE_STATE_DIR: work }, cwd: work, timeoutMs })
const leftovers = (dir: string) => readdirSync(dir).filter((f) => /partial|\.tmp/.test(f))

/**
 * Start the CLI through the proxy and send SIGINT `afterMs` after its first request reaches the API server
 * (or once `ready` says so): counted from the start, a loaded machine could signal a process still loading
 * its code. `ms` is how long it took to end after the signal.
 */
function interrupt(args: string[], afterMs: number, ready?: () => Promise<boolean>): Promise<CliResult & { ms: number; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    let signalled = 0
    const child = spawn(CLI, args, { cwd: work, env: { ...process.env, KUBECONFIG: proxy.kubeconfigPath, NO_COLOR: '1', KUBECTL_CHAINNODE_STATE_DIR: work } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const seen = proxy.requests
    let waiting = false
    const poll = setInterval(async () => {
      if (waiting) return
      waiting = true
      const go = ready ? await ready() : proxy.requests !== seen
      waiting = false
      if (!go) return
      clearInterval(poll)
      setTimeout(() => {
        signalled = Date.now()
        child.kill('SIGINT')
      }, afterMs)
    }, 20)
    child.on('close', (code, signal) => {
      clearInterval(poll)
      resolve({ code: code ?? -1, signal, stdout, stderr, ms: Date.now() - signalled })
    })
  })
}

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })

const isListening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

describe('faults: the tool never makes a bad night worse', () => {
  beforeAll(() => useCluster(inject('clusterDir')))
  beforeEach(async () => {
    await refreshScenarios()
    proxy = await startFaultProxy(readClusterState(), mkdtempSync(path.join(work, 'proxy-')))
  })

  it('gives up on a slow API server after --request-timeout, with one line and exit 3', async () => {
    proxy.delayMs = 4000
    const started = Date.now()
    const result = await viaProxy(['doctor', 'fullnode-0', '-n', 'sc-healthy', '--request-timeout', '1s', '--no-probe'])
    expect(result.code).toBe(3)
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: request timed out after 1s/)])
    expect(Date.now() - started).toBeLessThan(3500)
  })

  it('still works on a slow API server within the timeout', async () => {
    proxy.delayMs = 300
    const result = await viaProxy(['status', 'fullnode-0', '-n', 'sc-healthy', '--request-timeout', '10s'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/fullnode-0\s+Running/)
  })

  it('honours 429 Retry-After and then succeeds', async () => {
    proxy.throttle(3, 1)
    const started = Date.now()
    const result = await viaProxy(['status', 'fullnode-0', '-n', 'sc-healthy'])
    expect(result.code, result.stderr).toBe(0)
    expect(proxy.throttled).toBe(3)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
  })

  it('finishes when the API server stops in the middle of a run, naming what it could not read', async () => {
    // Logs are read once the ChainNode and the Pod lists have arrived: the server dies under the rest.
    proxy.killOn(/\/log\?/)
    const result = await viaProxy(['doctor', 'fullnode-0', '-n', 'sc-healthy', '--no-probe', '-o', 'json', '--fail-on', 'never'])
    expect(result.code, result.stderr).toBe(3)
    const report = JSON.parse(result.stdout)
    expect(report.summary.incomplete).toBe(true)
    expect(report.clusters[0].collectionErrors.length).toBeGreaterThan(0)
    expect(report.clusters[0].collectionErrors.every((e: { reason: string }) => e.reason === 'unreachable')).toBe(true)
    expect(result.stderr).not.toMatch(/^\s+at /m)
  })

  it('ends a run whose reads outlast --timeout with a report of what was read, marked incomplete (exit 3)', async () => {
    // The lists answer at once; every log read hangs far beyond the run's deadline.
    proxy.slowOn(/\/log\?/, 60_000)
    const result = await viaProxy(['doctor', '--all', '-n', 'sc-healthy', '--no-probe', '--timeout', '4s', '-o', 'json', '--fail-on', 'never'], 30_000)
    expect(result.code, result.stderr).toBe(3)
    const report = JSON.parse(result.stdout)
    expect(report.summary.incomplete).toBe(true)
    expect(report.summary.nodes).toBe(3)
    const cut = report.clusters[0].collectionErrors.filter((e: { what: string; reason: string }) => e.reason === 'timeout' && /^logs of /.test(e.what))
    expect(cut.length).toBeGreaterThan(0)
    expect(cut[0].message).toMatch(/deadline/)
  })

  it('removes the partial file when the port-forward drops in the middle of a capture', async () => {
    // A trace, so the CPU profiler of the shared pprof target stays free for the Ctrl-C test below.
    const file = path.join(work, 'dropped.trace')
    setTimeout(() => proxy.kill(), 2000)
    const result = await viaProxy(['pprof', 'trace', 'fullnode-0', '-n', 'sc-healthy', '--seconds', '5', '-o', file])
    expect(result.code, result.stderr).toBe(3)
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(/^error: /)
    expect(existsSync(file)).toBe(false)
    expect(leftovers(work)).toEqual([])
    // The trace goes on inside the shared pprof target for its 5 seconds: let it end before other captures.
    await new Promise((resolve) => setTimeout(resolve, 4000))
  })

  it('Ctrl-C during collection leaves nothing behind', async () => {
    proxy.delayMs = 5000
    const out = path.join(work, 'interrupted.tgz')
    const result = await interrupt(['collect', '--all', '-n', 'sc-healthy', '--out', out], 500)
    // Waiting for the API server, nothing is open that needs undoing: no listener holds the signal back, and
    // the kernel's default action ends the process (src/util/cleanup.ts), as the shell's 130 says.
    expect(result.signal, result.stderr).toBe('SIGINT')
    expect(result.ms).toBeLessThan(2000)
    expect(existsSync(out)).toBe(false)
    expect(leftovers(work)).toEqual([])
  })

  it('Ctrl-C during a capture closes the port-forward and leaves no file', async () => {
    const file = path.join(work, 'interrupted.pb.gz')
    const localPort = 20000 + Math.floor(Math.random() * 20000)
    const result = await interrupt(
      ['pprof', 'profile', 'fullnode-0', '-n', 'sc-healthy', '--seconds', '8', '--local-port', String(localPort), '-o', file],
      1500,
      // Once the port-forward listens there is something to undo (before, a signal just ends the process).
      () => isListening(localPort),
    )
    // A port-forward and a partial file are open: the handler closes and removes them, then exits 130.
    expect(result.code, result.stderr).toBe(130)
    expect(result.stderr).toMatch(/interrupted \(SIGINT\): nothing was left behind/)
    expect(existsSync(file)).toBe(false)
    expect(leftovers(work)).toEqual([])
    expect(await portIsFree(localPort)).toBe(true)
    // The CPU profile goes on inside the shared pprof target until its 8 seconds are over.
    await new Promise((resolve) => setTimeout(resolve, 6000))
  })

  it('Ctrl-C while reading a bundle offline leaves nothing behind', async () => {
    const bundle = path.join(work, 'b.tgz')
    expect((await viaProxy(['collect', '--all', '-n', 'sc-healthy', '--out', bundle])).code).toBe(0)
    const result = await interrupt(['doctor', '--bundle', bundle], 150)
    // Reading a bundle needs nothing undone: a SIGINT ends the process by the kernel's default action (code -1 here).
    // A run that finished first ends 3: sc-healthy's nodes have no chain process to probe, so they are not measured.
    expect([3, -1]).toContain(result.code)
    expect(leftovers(work)).toEqual([])
  })
})
