/**
 * cluster/chain-probe.ts over a real CometBFT /status answer (test/fixtures/chain-commits), its height, block time
 * and catching_up set per node, served in place of the port-forwards: which nodes are read twice, and when.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { probeChains, warmRecalled, type PodGet, type PodPort } from '../../src/cluster/chain-probe.js'
import { movementOf } from '../../src/snapshot/chain.js'
import type { ChainNode, ConfigMap, Pod } from '../../src/snapshot/kinds.js'
import { fourValidators } from '../helpers/chain-commits.js'
import { linesOf, type LogLine } from '../../src/snapshot/log-lines.js'
import { measuredStall } from '../../src/analysis/chain-evidence.js'
import { ROOT } from '../helpers/cli.js'

/**
 * A halted full node's real log (committed 5, consensus timing out at 6 from 01:31:45.304 on), moved to height 100 and
 * in time so that its first timeout at 101 is `stuckForMs` ago.
 */
function haltedLog(stuckForMs: number, { committedAbove = false } = {}): LogLine[] {
  const lines = linesOf(readFileSync(path.join(ROOT, 'test', 'fixtures', 'chain-logs', 'comet-plain-halted-fullnode.log'), 'utf8'))
  const shift = Date.now() - stuckForMs - Date.parse('2026-11-25T01:31:45.304644107Z')
  const moved = lines.map(({ at, text }) => ({
    at: new Date(Date.parse(at!) + shift).toISOString(),
    text: text.replace(/height=(\d+)/, (_, h: string) => `height=${Number(h) + 95}`),
  }))
  const commit = { at: new Date().toISOString(), text: 'I[2026-11-25|01:40:00.000] committed state   module=state height=101' }
  return committedAbove ? [...moved, commit] : moved
}

interface Chain {
  /** Age of the last block at the first reading, in seconds. */
  blockAge: number
  catchingUp: boolean
  /** How long the node takes to answer its first /status, in ms. */
  delayMs?: number
  /** Blocks gained between the first and the second reading. */
  gained?: number
  /** No block yet: height 0 (blockAge is then ignored). */
  noBlock?: boolean
  /** How long the node's container has run, in seconds, as the Pod's status says. */
  runningFor?: number
  /** Its main container's log as the run read it. */
  log?: LogLine[]
}

function fleet(chains: Record<string, Chain>) {
  const nodes = Object.keys(chains).map((name) => ({ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', metadata: { name, namespace: 'ns' } }))
  const pods = Object.entries(chains).map(([name, chain]) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns' },
    spec: { containers: [{ name: 'app' }] },
    status: {
      phase: 'Running',
      ...(chain.runningFor === undefined
        ? {}
        : { containerStatuses: [{ name: 'app', state: { running: { startedAt: new Date(Date.now() - chain.runningFor * 1000).toISOString() } } }] }),
    },
  }))
  const started = Date.now()
  const reads: { pod: string; path: string; at: number }[] = []
  const get: PodGet = async (_ns, pod, _port, paths) => {
    const chain = chains[pod]
    const first = !reads.some((r) => r.pod === pod && r.path === '/status')
    if (first && chain.delayMs) await new Promise((resolve) => setTimeout(resolve, chain.delayMs))
    return paths.map((path) => {
      reads.push({ pod, path, at: Date.now() - started })
      const status = structuredClone(fourValidators.status['val-0'])
      const height = chain.noBlock ? 0 : 100 + (first ? 0 : (chain.gained ?? 0))
      Object.assign(status.sync_info, {
        latest_block_height: String(height),
        latest_block_time: new Date(Date.now() - chain.blockAge * 1000).toISOString(),
        catching_up: chain.catchingUp,
      })
      const result = path === '/status' ? status : { listening: true, n_peers: '0', peers: [] }
      return { status: 200, contentType: 'application/json', body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: -1, result })), truncated: false }
    })
  }
  const probe = async (windowMs: number) => {
    let whileWaiting: { at: number; pods: string[] } | undefined
    const mainLog = async (_ns: string, pod: string) => (chains[pod].log ? { container: 'app', lines: chains[pod].log! } : undefined)
    const records = await probeChains(
      nodes as ChainNode[],
      pods as Pod[],
      Promise.resolve([] as ConfigMap[]),
      { get, windowMs, mainLog },
      [],
      async (early) => {
        whileWaiting = { at: Date.now() - started, pods: early.map((r) => r.pod) }
      },
    )
    return { records: Object.fromEntries(records.map((r) => [r.pod, r])), elapsed: Date.now() - started, whileWaiting }
  }
  const statusReads = (pod: string) => reads.filter((r) => r.pod === pod && r.path === '/status')
  return { probe, statusReads }
}

describe('the chain probe window', () => {
  it('reads again only the nodes whose first reading does not decide', async () => {
    const { probe, statusReads } = fleet({
      producing: { blockAge: 2, catchingUp: false },
      halted: { blockAge: 600, catchingUp: false },
      'catching-up': { blockAge: 600, catchingUp: true, gained: 40 },
      'lately-stopped': { blockAge: 30, catchingUp: false },
    })
    const { records } = await probe(200)
    expect(statusReads('producing')).toHaveLength(1)
    expect(statusReads('halted')).toHaveLength(1)
    expect(statusReads('catching-up')).toHaveLength(2)
    expect(statusReads('lately-stopped')).toHaveLength(2)
    expect(movementOf(records.producing.chain!).kind).toBe('moving')
    expect(movementOf(records.halted.chain!)).toMatchObject({ kind: 'stalled', height: 100 })
    expect(records.halted.chain).toMatchObject({ stale: true })
    expect(records.halted.detail).toMatch(/^height 100, stalled at 100 since \S+Z, 0 peer/)
    expect(movementOf(records['catching-up'].chain!).kind).toBe('catching-up')
    expect(movementOf(records['lately-stopped'].chain!)).toMatchObject({ kind: 'stalled', height: 100 })
  })

  it('waits once for the whole fleet: the second readings go out together, the window after the latest first reading', async () => {
    const { probe, statusReads } = fleet({
      early: { blockAge: 30, catchingUp: false },
      late: { blockAge: 30, catchingUp: false, delayMs: 300 },
      'catching-up': { blockAge: 600, catchingUp: true, delayMs: 150, gained: 5 },
    })
    const { elapsed, whileWaiting } = await probe(400)
    const seconds = ['early', 'late', 'catching-up'].map((pod) => statusReads(pod)[1].at)
    const latestFirst = Math.max(...['early', 'late', 'catching-up'].map((pod) => statusReads(pod)[0].at))
    // What needs only the first readings (signing, the Cosmos SDK modules) starts as soon as they are in.
    expect(whileWaiting!.pods.sort()).toEqual(['catching-up', 'early', 'late'])
    expect(whileWaiting!.at).toBeLessThan(latestFirst + 100)
    for (const at of seconds) expect(at).toBeGreaterThanOrEqual(latestFirst + 400 - 5)
    expect(Math.max(...seconds) - Math.min(...seconds)).toBeLessThan(100)
    // One window, not one after each node's own first reading (300 + 400 + 400 for a chain of waits).
    expect(elapsed).toBeLessThan(300 + 400 + 250)
  })

  it('no block yet on a node whose container has run a minute decides at once; one that just started is read again', async () => {
    const { probe, statusReads } = fleet({
      'never-started': { blockAge: 0, catchingUp: true, noBlock: true, runningFor: 300 },
      'just-started': { blockAge: 0, catchingUp: true, noBlock: true, runningFor: 5 },
      'no-start-time': { blockAge: 0, catchingUp: true, noBlock: true },
    })
    const { records } = await probe(200)
    expect(statusReads('never-started')).toHaveLength(1)
    expect(records['never-started'].chain).toMatchObject({ stale: true, runningSince: expect.stringMatching(/Z$/) })
    expect(movementOf(records['never-started'].chain!)).toEqual({ kind: 'stalled', height: 0, since: undefined })
    expect(records['never-started'].detail).toMatch(/^height 0, stalled at 0 \(no block yet\), catching_up, 0 peer/)
    expect(statusReads('just-started')).toHaveLength(2)
    expect(statusReads('no-start-time')).toHaveLength(2)
    expect(records['just-started'].chain?.stale).toBeUndefined()
    expect(movementOf(records['just-started'].chain!)).toEqual({ kind: 'stalled', height: 0, since: undefined })
  })

  it('a node whose own log shows consensus stuck above its height for longer than the window is not read again', async () => {
    const { probe, statusReads } = fleet({
      'stuck-in-log': { blockAge: 30, catchingUp: false, log: haltedLog(2000) },
      'stuck-just-now': { blockAge: 30, catchingUp: false, log: haltedLog(500) },
      'committed-since': { blockAge: 30, catchingUp: false, log: haltedLog(10_000, { committedAbove: true }) },
      'no-log': { blockAge: 30, catchingUp: false },
    })
    const { records, elapsed } = await probe(1500)
    expect(statusReads('stuck-in-log')).toHaveLength(1)
    expect(records['stuck-in-log'].chain).toMatchObject({ stale: true, stuckInLog: { source: 'log of stuck-in-log/app', height: 101 } })
    expect(movementOf(records['stuck-in-log'].chain!)).toMatchObject({ kind: 'stalled', height: 100 })
    const evidence = measuredStall(records['stuck-in-log'].chain!)!.map((e) => `${e.kind} ${e.text}`)
    expect(evidence).toContainEqual(
      expect.stringMatching(
        /^probe height 100, and its log commits nothing above it: consensus timed out at height 101 from \S+Z on: stalled at 100 since \S+Z$/,
      ),
    )
    expect(evidence).toContainEqual(expect.stringMatching(/^log I\[\S+\] Timed out .*height=101 /))
    // A stall the log saw for less than the window, a commit the log shows above the reading, no log: the window decides.
    for (const pod of ['stuck-just-now', 'committed-since', 'no-log']) {
      expect(statusReads(pod), pod).toHaveLength(2)
      expect(records[pod].chain?.stuckInLog, pod).toBeUndefined()
    }
    expect(elapsed).toBeGreaterThanOrEqual(1500)
  })

  it('a last block of seconds ago is a stall when the log shows consensus stuck above it for longer than the window: a chain that halted seconds ago', async () => {
    const { probe, statusReads } = fleet({
      'halted-lately': { blockAge: 12, catchingUp: false, log: haltedLog(11_000) },
      'timed-out-just-now': { blockAge: 12, catchingUp: false, log: haltedLog(300) },
      'committed-since': { blockAge: 12, catchingUp: false, log: haltedLog(11_000, { committedAbove: true }) },
      producing: { blockAge: 1, catchingUp: false },
    })
    const { records, elapsed } = await probe(1000)
    expect(statusReads('halted-lately')).toHaveLength(1)
    expect(records['halted-lately'].chain).toMatchObject({ stale: true, stuckInLog: { height: 101 } })
    expect(movementOf(records['halted-lately'].chain!)).toMatchObject({ kind: 'stalled', height: 100 })
    expect(measuredStall(records['halted-lately'].chain!)).toBeDefined()
    // A timeout the log saw for less than the window, a commit above the reading, no log: the recent block says moving.
    for (const pod of ['timed-out-just-now', 'committed-since', 'producing']) {
      expect(statusReads(pod), pod).toHaveLength(1)
      expect(movementOf(records[pod].chain!), pod).toMatchObject({ kind: 'moving' })
      expect(measuredStall(records[pod].chain!), pod).toBeUndefined()
    }
    // Recent blocks are never read again: nothing waits for the window.
    expect(elapsed).toBeLessThan(1000)
  })

  it('a fleet whose undecided nodes are all decided by their logs waits no window', async () => {
    const { probe, statusReads } = fleet({ halted: { blockAge: 30, catchingUp: false, log: haltedLog(10_000) }, producing: { blockAge: 1, catchingUp: false } })
    const { elapsed } = await probe(5000)
    expect(statusReads('halted')).toHaveLength(1)
    expect(elapsed).toBeLessThan(5000)
  })

  it('a window of 0 reads each node once', async () => {
    const { probe, statusReads } = fleet({ lately: { blockAge: 30, catchingUp: false }, 'catching-up': { blockAge: 600, catchingUp: true } })
    await probe(0)
    expect(statusReads('lately')).toHaveLength(1)
    expect(statusReads('catching-up')).toHaveLength(1)
  })

  it('status -o wide reads the RPC port alone: node-utils and the state-sync servers only for doctor', async () => {
    const node = { apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', metadata: { name: 'n-0', namespace: 'ns' } }
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'n-0', namespace: 'ns' },
      spec: {
        containers: [
          { name: 'app', ports: [{ name: 'rpc', containerPort: 26657 }] },
          { name: 'node-utils', ports: [{ containerPort: 8000 }] },
        ],
      },
      status: { phase: 'Running' },
    }
    const portsRead = async (nodeUtils?: boolean) => {
      const ports = new Set<number>()
      const get: PodGet = async (_ns, _pod, port, paths) => {
        ports.add(port)
        return paths.map(() => new Error('connection refused'))
      }
      await probeChains([node] as ChainNode[], [pod] as Pod[], Promise.resolve([]), { get, windowMs: 0, nodeUtils }, [])
      return [...ports].sort()
    }
    expect(await portsRead(false)).toEqual([26657])
    expect(await portsRead()).toEqual([26657, 8000])
  })
})

describe('the port-forwards the last run probed, opened with the first reads', () => {
  const recalled: PodPort[] = Array.from({ length: 40 }, (_, i) => [
    { namespace: 'ns', pod: `n-${i}`, port: 26657 },
    { namespace: 'ns', pod: `n-${i}`, port: 8000, forRules: true as const },
  ]).flat()
  const warmed = (nodeUtils: boolean) => {
    const opened: string[] = []
    warmRecalled(recalled, { get: async () => [], windowMs: 0, nodeUtils, warm: (ns, pod, port) => opened.push(`${ns}/${pod}:${port}`) })
    return opened
  }

  it("doctor opens a node's RPC and node-utils ports together, for at most 32 nodes", () => {
    const opened = warmed(true)
    expect(opened.slice(0, 2)).toEqual(['ns/n-0:26657', 'ns/n-0:8000'])
    expect(new Set(opened.map((o) => o.split(':')[0])).size).toBe(32)
    expect(opened).toHaveLength(64)
  })

  it('status -o wide opens the RPC ports alone', () => {
    const opened = warmed(false)
    expect(opened.every((o) => o.endsWith(':26657'))).toBe(true)
    expect(opened).toHaveLength(32)
  })
})
