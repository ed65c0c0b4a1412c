import { COMET_RPC_PORT, isRecent, movementOf, describeMovement, STALE_BLOCK_MS } from '../snapshot/chain.js'
import { containerStatus, mainContainerName, podContainers, podInitContainers, NODE_UTILS } from '../snapshot/node-layout.js'
import { MAX_ANSWER_BYTES, peersOf, rpcResult, sampleOf, type RpcResult } from '../snapshot/rpc-answer.js'
import type { ChainFacts, CollectionError, ProbeRecord } from '../snapshot/types.js'
import { PortForwardRefused, type PodAnswer } from './pod-http.js'
import type { ChainNode, ConfigMap, Pod } from '../snapshot/kinds.js'
import { valueAt, textAt } from '../util/json-path.js'
import { consensusStuckAbove } from '../snapshot/chain-log.js'
import type { LogLine } from '../snapshot/log-lines.js'

/** Fetches a path from a Pod port (through the API server's port-forward in a live run). */
export type PodGet = (namespace: string, pod: string, port: number, paths: string[], maxBytes?: number) => Promise<(PodAnswer | Error)[]>

export interface ChainProbeOptions {
  get: PodGet
  /** How long after the first reading the height is read again, when the last block is old. */
  windowMs: number
  /** Validators: how many of the chain's last commits to count their signatures in (0 or absent: none). */
  signingWindow?: number
  /**
   * Also node-utils' API and the state-sync servers, which only doctor's rules read (default true); status -o wide,
   * which shows neither, leaves them out and opens one port-forward per Pod instead of two.
   */
  nodeUtils?: boolean
  /** Opens a Pod port's port-forward ahead of the probe's first call (warmProbes). */
  warm?: (namespace: string, pod: string, port: number) => void
  /** The log of a Pod's main container, once read (the run reads it anyway): it can decide a stall before the window ends. */
  mainLog?: (namespace: string, pod: string) => Promise<{ container: string; lines: LogLine[] } | undefined>
}

/** A port of a Pod, as the probe forwards it. */
export interface PodPort {
  namespace: string
  pod: string
  port: number
  /** node-utils' port, which only doctor's rules read (status -o wide leaves it out). */
  forRules?: boolean
}

/** How many nodes' port-forwards are opened ahead: a fleet's first round, as many as the forwards in flight at once. */
const WARM_NODES = 32

/**
 * Open the RPC port-forwards as soon as the ChainNodes are known, before their Pods are listed: the connections and
 * upgrades (most of a probe's time) then overlap the Pod lists instead of following them. Only where the probe asks for
 * nothing else of the Pod (status -o wide: the RPC port, CometBFT's default, whose Pod is named after its node); with
 * node-utils (doctor) its port comes from the Pod, and the probe opens both at once over one port-forward.
 */
export function warmProbes(nodes: ChainNode[], options: ChainProbeOptions): void {
  if (!options.warm || options.nodeUtils !== false) return
  for (const node of nodes.slice(0, WARM_NODES)) options.warm(node.metadata.namespace!, node.metadata.name, COMET_RPC_PORT)
}

/**
 * Open, with the run's first reads, the port-forwards of the Pod ports the last read of this cluster probed: their
 * connections and upgrades, most of the probe's time, then overlap the ChainNode and Pod lists. A Pod's RPC and
 * node-utils ports (doctor) are opened in one turn, so one port-forward carries both, as the probe would have opened
 * them; status -o wide opens the RPC ports alone. A Pod gone since is asked nothing. warmProbes is then left out: it
 * would open the nodes that had no running Pod to probe, and a node new since has its forward opened once its Pod is
 * listed.
 */
export function warmRecalled(ports: readonly PodPort[], options: ChainProbeOptions): void {
  if (!options.warm) return
  const pods = new Set<string>()
  for (const { namespace, pod, port, forRules } of ports) {
    if (forRules && options.nodeUtils === false) continue
    pods.add(`${namespace}/${pod}`)
    if (pods.size > WARM_NODES) return
    options.warm(namespace, pod, port)
  }
}

/**
 * Ask every running node's own CometBFT RPC (26657) and node-utils API whether its height moves
 * and how many peers it has. Runs alongside the other reads of a live run; a forbidden
 * port-forward is a read the run could not make, any other failure is one line of the probe record.
 */
export async function probeChains(
  nodes: ChainNode[],
  pods: Pod[],
  configs: Promise<ConfigMap[]>,
  options: ChainProbeOptions,
  errors: CollectionError[],
  /** Reads that need only the first readings (signing, the Cosmos SDK modules), run while the fleet's window passes. */
  whileWaiting?: (records: ProbeRecord[]) => Promise<void>,
): Promise<ProbeRecord[]> {
  const running = nodes
    .map((node) => ({ node, pod: pods.find((p) => p.metadata.namespace === node.metadata.namespace && p.metadata.name === node.metadata.name) }))
    .filter((entry): entry is { node: ChainNode; pod: Pod } => entry.pod?.status?.phase === 'Running')
  // First readings of every node at once (the port-forwards bound them), then one wait for the whole fleet and
  // the second readings of the nodes whose first did not decide.
  const probes = running.map(({ node, pod }) => {
    const config = configs.then(
      (all) => all.find((c) => c.metadata.namespace === node.metadata.namespace && c.metadata.name === node.metadata.name)?.data?.['config.toml'],
    )
    const probe = startProbe(node, pod, config, pods, options)
    return { pod, probe, first: probe.first.catch(() => undefined) }
  })
  const firsts = await Promise.all(probes.map((p) => p.first))
  // The records so far share their facts with the final ones: what whileWaiting adds to a node's facts stays.
  const early = probes.flatMap(({ pod, probe }) => (probe.refused ? [] : [recordOf(pod, rpcPort(pod), probe.facts)]))
  await Promise.all([secondReadings(firsts, options), whileWaiting?.(early)])
  const records = await Promise.all(
    probes.map(({ pod, probe }) =>
      probe.record.catch((error: Error) => {
        if (!(error instanceof PortForwardRefused)) throw error
        errors.push({
          what: `port-forward to pod/${pod.metadata.name}:${rpcPort(pod)} (chain probe not checked)`,
          namespace: pod.metadata.namespace,
          reason: error.status === 401 ? 'unauthorized' : 'forbidden',
          message: error.message,
        })
        return undefined
      }),
    ),
  )
  return records.filter((r): r is ProbeRecord => r !== undefined)
}

/** A node's first /status reading, and what the second reading needs: when it was taken, and where to read again. */
interface FirstReading {
  facts: ChainFacts
  at: number
  /** When the node's container started (the Pod's status), if it runs. */
  runningSince?: string
  again: () => Promise<(RpcResult | undefined)[]>
  /** What of the node's log shows it stalled for longer than the window, if it does. */
  stalledInLog: () => Promise<ChainFacts['stuckInLog']>
  settle: () => void
}

/**
 * The second /status reading of every node whose first did not decide, after one wait for the whole fleet: the window
 * counted from the latest of their first readings, so each node is read again at least the window after its first.
 */
async function secondReadings(firsts: (FirstReading | undefined)[], options: ChainProbeOptions): Promise<void> {
  const undecided = firsts.filter((f): f is FirstReading => f !== undefined && needsSecondReading(f.facts, options.windowMs, f.runningSince))
  for (const f of firsts) {
    if (!f || undecided.includes(f)) continue
    // A last block of seconds ago reads as moving, but a chain that halted seconds ago has one too: the node's log,
    // which the run reads anyway, says whether consensus has been stuck above it for longer than the window. The
    // record waits for that log (the snapshot waits for it regardless); no second reading is taken.
    if (options.windowMs > 0 && isRecent(f.facts))
      void f
        .stalledInLog()
        .then((stuck) => stuck && stalledByLog(f.facts, stuck))
        .catch(() => undefined)
        .finally(f.settle)
    else f.settle()
  }
  if (undecided.length === 0) return
  const latest = Math.max(...undecided.map((f) => f.at))
  let timer: NodeJS.Timeout | undefined
  const windowEnds = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, latest + options.windowMs - Date.now()))))
  try {
    await Promise.all(
      undecided.map(async (f) => {
        try {
          // The node's own log, read by the run meanwhile, may have seen it stalled for longer than the window already;
          // recorded only if it is in before the window ends (then no second reading is taken).
          const stuck = await Promise.race([f.stalledInLog().then((inLog) => inLog ?? windowEnds), windowEnds])
          if (stuck) return stalledByLog(f.facts, stuck)
          const [second] = await f.again()
          if (second) f.facts.resample = sampleOf(second, new Date().toISOString())
        } catch {
          // A refused port-forward was said by the first reading's call; the second is simply not there.
        } finally {
          f.settle()
        }
      }),
    )
  } finally {
    clearTimeout(timer)
  }
}

/** Record a stall the node's log decided (stalledInLog): `stale`, with the log's lines as its evidence. */
function stalledByLog(facts: ChainFacts, stuck: NonNullable<ChainFacts['stuckInLog']>): void {
  Object.assign(facts, { stale: true, stuckInLog: stuck })
}

/**
 * A stall read from the node's log (consensusStuckAbove) instead of a second reading: consensus has timed out above
 * the height the node reported, and the log, read after the first reading, has committed nothing since for at least
 * the window: what a second reading the window later would have measured, over a longer time. Recorded as `stale`.
 */
async function stalledInLog(
  facts: ChainFacts,
  log: Promise<{ container: string; lines: LogLine[] } | undefined> | undefined,
  pod: string,
  windowMs: number,
): Promise<ChainFacts['stuckInLog']> {
  const read = await log?.catch(() => undefined)
  const stuck = read && facts.status ? consensusStuckAbove(read.lines, facts.status.height) : undefined
  // Now is just after the log was read: the log shows no progress from `since` to (about) now.
  if (!stuck || Date.now() - Date.parse(stuck.since) < windowMs) return undefined
  return { source: `log of ${pod}/${read!.container}`, ...stuck }
}

/**
 * Whether the height must be read again to tell moving, catching up and stalled apart. Not when the first reading
 * decides: a recent last block moves; a last block older than STALE_BLOCK_MS on a node not catching up is a stall;
 * so is no block yet on a node whose container has run for STALE_BLOCK_MS (both recorded as `stale`): whatever it
 * waits for (peers, a snapshot, the genesis time) has not come in a minute and does not come within the window.
 * A window of 0 (status -o wide) asks for one reading only.
 */
export function needsSecondReading(facts: ChainFacts, windowMs: number, runningSince?: string): boolean {
  const status = facts.status
  if (!status || windowMs <= 0 || isRecent(facts)) return false
  const at = Date.parse(status.at)
  if (status.height > 0 && status.blockTime && !status.catchingUp && at - Date.parse(status.blockTime) >= STALE_BLOCK_MS) {
    facts.stale = true
    return false
  }
  if (status.height === 0 && runningSince && at - Date.parse(runningSince) >= STALE_BLOCK_MS) {
    facts.stale = true
    facts.runningSince = runningSince
    return false
  }
  return true
}

/**
 * Start a node's probe: `first` resolves with its first /status reading (undefined without one), `record` once the
 * second reading (taken by secondReadings for the whole fleet) and the node's other reads are in.
 */
function startProbe(
  node: ChainNode,
  pod: Pod,
  config: Promise<string | undefined>,
  pods: Pod[],
  options: ChainProbeOptions,
): { first: Promise<FirstReading | undefined>; record: Promise<ProbeRecord>; facts: ChainFacts; refused: boolean } {
  const namespace = pod.metadata.namespace!
  const port = rpcPort(pod)
  const facts: ChainFacts = { problems: [] }
  const rpc = (paths: string[]) => rpcResults(options.get, namespace, pod.metadata.name, port, paths, facts)
  let settle = () => {}
  const secondDone = new Promise<void>((resolve) => (settle = resolve))
  const probe = { facts, refused: false }
  const first = (async (): Promise<FirstReading | undefined> => {
    const [status, netInfo] = await rpc(['/status', '/net_info']).catch((error: Error) => {
      if (error instanceof PortForwardRefused) probe.refused = true
      throw error
    })
    if (netInfo) facts.peers = peersOf(netInfo, new Date().toISOString())
    if (!status) return undefined
    const sample = readStatus(status, facts)
    const runningSince = containerStatus(pod, mainContainerName(node, pod) ?? '')?.state?.running?.startedAt ?? undefined
    return {
      facts,
      at: Date.parse(sample.at),
      runningSince,
      again: () => rpc(['/status']),
      stalledInLog: () => stalledInLog(facts, options.mainLog?.(namespace, pod.metadata.name), pod.metadata.name, options.windowMs),
      settle,
    }
  })()
  const record = (async () => {
    const forRules = options.nodeUtils ?? true
    const nodeUtils = forRules ? probeNodeUtils(options.get, pod, facts) : undefined
    const stateSync = forRules ? probeStateSync(options.get, node, config, pods, facts) : undefined
    // Without a first reading there is no second to wait for.
    await Promise.all([first.then((reading) => (reading ? secondDone : undefined)), nodeUtils, stateSync])
    return recordOf(pod, port, facts)
  })()
  return Object.assign(probe, { first, record })
}

function recordOf(pod: Pod, port: number, facts: ChainFacts): ProbeRecord {
  const namespace = pod.metadata.namespace!
  const target = `pod/${pod.metadata.name}:${port}`
  const at = facts.status?.at ?? new Date().toISOString()
  if (!facts.status)
    return {
      kind: 'chain',
      namespace,
      pod: pod.metadata.name,
      target,
      ok: false,
      detail: facts.problems.find((p) => p.startsWith('/status')) ?? 'no /status answer',
      at,
      chain: facts,
    }
  const peerText = facts.peers ? `, ${facts.peers.total} peer(s) (${facts.peers.inbound} in, ${facts.peers.outbound} out)` : ''
  return {
    kind: 'chain',
    namespace,
    pod: pod.metadata.name,
    target,
    ok: true,
    detail: `height ${facts.status.height}, ${describeMovement(movementOf(facts))}${facts.status.catchingUp ? ', catching_up' : ''}${peerText}`,
    at,
    chain: facts,
  }
}

/** What one /status answer says (height, network, the validator key the process presents), into `facts`. */
export function readStatus(result: RpcResult, facts: ChainFacts): NonNullable<ChainFacts['status']> {
  const sample = sampleOf(result, new Date().toISOString())
  facts.status = {
    ...sample,
    earliestHeight: Number(valueAt(result, 'sync_info', 'earliest_block_height') ?? 0),
    network: String(valueAt(result, 'node_info', 'network') ?? ''),
    nodeId: String(valueAt(result, 'node_info', 'id') ?? ''),
  }
  const address = textAt(result, 'validator_info', 'address')
  if (address !== undefined && /^[0-9A-Fa-f]{40}$/.test(address))
    facts.validator = { address: address.toUpperCase(), votingPower: Number(valueAt(result, 'validator_info', 'voting_power') ?? 0) || 0 }
  return facts.status
}

/** The `result` of each CometBFT JSON-RPC answer, or one line per path in `facts.problems` saying why there is none. */
export async function rpcResults(
  get: PodGet,
  namespace: string,
  pod: string,
  port: number,
  paths: string[],
  facts: ChainFacts,
  maxBytes = MAX_ANSWER_BYTES,
): Promise<(RpcResult | undefined)[]> {
  let answers: (PodAnswer | Error)[]
  try {
    answers = await get(namespace, pod, port, paths, maxBytes)
  } catch (error) {
    if (error instanceof PortForwardRefused) throw error
    answers = paths.map(() => error as Error)
  }
  return answers.map((answer, i) =>
    rpcResult(answer, `${paths[i].split('?')[0]} on ${port}`, facts.problems, { netInfo: paths[i] === '/net_info', limit: maxBytes }),
  )
}

/** The RPC port the Pod declares (named `rpc`), else CometBFT's default. */
export function rpcPort(pod: Pod): number {
  return namedPort(podContainers(pod), 'rpc') ?? COMET_RPC_PORT
}

function namedPort(containers: { name: string; ports?: { name?: string; containerPort: number }[] }[], name: string, container?: string): number | undefined {
  for (const c of containers) {
    if (container && c.name !== container) continue
    const port = c.ports?.find((p) => p.name === name) ?? (container ? c.ports?.[0] : undefined)
    if (port) return port.containerPort
  }
  return undefined
}

/** node-utils' /latest_height and /state_syncing, when its container declares a port. */
async function probeNodeUtils(get: PodGet, pod: Pod, facts: ChainFacts): Promise<void> {
  const port = namedPort([...podInitContainers(pod), ...podContainers(pod)], NODE_UTILS, NODE_UTILS)
  if (port === undefined) return
  const nodeUtils: NonNullable<ChainFacts['nodeUtils']> = { port, at: new Date().toISOString(), problems: [] }
  facts.nodeUtils = nodeUtils
  const paths = ['/latest_height', '/state_syncing']
  let answers: (PodAnswer | Error)[]
  try {
    answers = await get(pod.metadata.namespace!, pod.metadata.name, port, paths, 4096)
  } catch (error) {
    if (error instanceof PortForwardRefused) throw error
    answers = paths.map(() => error as Error)
  }
  const [height, syncing] = answers.map((answer, i) => {
    if (answer instanceof Error) nodeUtils.problems.push(`${paths[i]} on ${port}: ${answer.message}`)
    else if (answer.status === 200) return answer.body.toString('utf8').trim()
    else nodeUtils.problems.push(`${paths[i]} on ${port}: HTTP ${answer.status}: ${answer.body.toString('utf8').trim().slice(0, 120)}`)
    return undefined
  })
  if (height !== undefined && /^\d+$/.test(height)) nodeUtils.latestHeight = Number(height)
  else if (height !== undefined) nodeUtils.problems.push(`/latest_height on ${port}: not a height: ${height.slice(0, 80)}`)
  if (syncing === 'true' || syncing === 'false') nodeUtils.stateSyncing = syncing === 'true'
}

/**
 * With state-sync restore on, each RPC server of the rendered config.toml is asked for its height
 * and the block hash at the trust height. The servers are other nodes' `<node>-internal` Services:
 * reached through their node's Pod, since the Service's cluster address is not reachable from here.
 */
async function probeStateSync(get: PodGet, node: ChainNode, rendered: Promise<string | undefined>, pods: Pod[], facts: ChainFacts): Promise<void> {
  if (!node.spec?.stateSyncRestore) return
  const config = await rendered
  if (!config) return
  const section = /\[statesync\]([\s\S]*?)(\n\[|$)/.exec(config)?.[1] ?? ''
  const servers = (/rpc_servers\s*=\s*"([^"]*)"/.exec(section)?.[1] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const trustHeight = Number(/trust_height\s*=\s*(\d+)/.exec(section)?.[1] ?? 0) || undefined
  const trustHash = /trust_hash\s*=\s*"([^"]*)"/.exec(section)?.[1] || undefined
  const stateSync: NonNullable<ChainFacts['stateSync']> = { trustHeight, trustHash, servers: [] }
  facts.stateSync = stateSync
  await Promise.all(
    [...new Set(servers)].map(async (url) => {
      const entry: (typeof stateSync.servers)[number] = { url, at: new Date().toISOString() }
      stateSync.servers.push(entry)
      const parsed = /^(?:\w+:\/\/)?([^:/]+)(?::(\d+))?/.exec(url)
      const [service, namespace = node.metadata.namespace] = (parsed?.[1] ?? '').split('.')
      const pod = pods.find((p) => p.metadata.namespace === namespace && p.metadata.name === service.replace(/-internal$/, ''))
      if (!pod) {
        entry.problem = `no Pod behind ${parsed?.[1] ?? url} in this cluster read`
        return
      }
      const local: ChainFacts = { problems: [] }
      const port = Number(parsed?.[2] ?? COMET_RPC_PORT)
      const [status, commit] = await rpcResults(
        get,
        namespace!,
        pod.metadata.name,
        port,
        ['/status', ...(trustHeight ? [`/commit?height=${trustHeight}`] : [])],
        local,
      )
      if (status) entry.latestHeight = Number(valueAt(status, 'sync_info', 'latest_block_height') ?? 0)
      // A hash that is not text is no hash: it must not reach the bundle (its reader would refuse the file).
      if (commit) entry.hashAtTrustHeight = textAt(commit, 'signed_header', 'commit', 'block_id', 'hash')
      if (local.problems.length) entry.problem = local.problems[0]
    }),
  )
}
