import { planLogSample } from './log-sample.js'
import { SnapshotIndex } from '../snapshot/index.js'
import {
  allContainerStatuses,
  containerRole,
  mainContainerName,
  ownerSetName,
  podReady,
  podRestarts,
  signerTargetOf,
  usesVolumeSnapshots,
} from '../snapshot/node-layout.js'
import { SNAPSHOT_FORMAT_VERSION, type CollectionError, type KeySearch, type KubeObject, type LogRecord, type Scope, type Snapshot } from '../snapshot/types.js'
import type { Redactor } from '../snapshot/redact.js'
import { logFile, PROBES_FILE, resourceFile } from '../snapshot/bundle-paths.js'
import { findChainNodes } from './find-nodes.js'
import type { KubeClient } from './kube-client.js'
import { ACROSS_FROM, readerFor, sendAcross, startLists, type Wanted } from './lists.js'
import type { WatchedLists } from './watched-lists.js'
import { collectLogs, type LogOptions, type LogRequest } from './logs.js'

type LogSource = Omit<LogRequest, 'main'>
import { collectOperator, type EarlyLog } from './collect-operator.js'
import { probeChains, warmProbes, warmRecalled, type ChainProbeOptions, type PodPort } from './chain-probe.js'
import { probeSigning } from './signing-probe.js'
import { keptHolders, searchKeyHolders } from './key-holders.js'
import { CLUSTER_TARGETS, NAMESPACE_TARGETS, type ListTarget } from './targets.js'
import type { ChainNode, KubeEvent, Pod } from '../snapshot/kinds.js'
import { linesOf } from '../snapshot/log-lines.js'

/**
 * Which pods get their logs read. 'auto' with logs.sample (doctor): every node that looks different, and
 * a sample of each group of look-alike nodes, so a fleet's log reads grow with its distinct troubles,
 * not with its nodes. 'auto' without it: all for a few nodes, only unhealthy pods for a fleet.
 */
export type LogMode = 'all' | 'unhealthy' | 'none' | 'auto'
/** Above this many nodes, 'auto' without a sample reads only the logs of unhealthy pods so a fleet run stays fast. */
export const FLEET_LOG_THRESHOLD = 20

/**
 * What a command that shows less than doctor needs read: only the lists of these kinds, and the operator's
 * release (its Deployments, their Pods and the manager log the log roles allow) only with `operator`.
 * Pods and ConfigMaps belong in every set: each read of a node records its Pod and config-hash (history).
 */
export interface ObjectReads {
  kinds: readonly string[]
  operator: boolean
  /** What of the operator release's own namespace to list (Lease, Event, Certificate); none when absent. */
  operatorKinds?: readonly string[]
  /** Lists of the nodes' namespaces read narrower, by kind: to a field selector, or to the objects' metadata. */
  narrowed?: Readonly<Record<string, Pick<ListTarget, 'fieldSelector' | 'metadataOnly'>>>
}

export interface CollectOptions {
  scope: Scope
  /** sample: how many Pods of each group of look-alike nodes have their logs read in 'auto' mode (0: all). */
  logs: LogOptions & { mode: LogMode; sample?: number }
  cliVersion: string
  contextName: string
  /** Masks secrets in each list and log as it arrives, so the masking overlaps the waits for the server. */
  redactor?: Redactor
  /**
   * Where the operator's manager ran when this cluster was last read: its log is asked for with the first
   * reads instead of after the operator's Pod list, and used only if that Pod is still the manager.
   */
  operatorPods?: readonly { namespace: string; pod: string }[]
  /** The Pod ports the chain probe read when this cluster was last read: their port-forwards open with the first reads. */
  probedPorts?: readonly PodPort[]
  /**
   * The namespaces of the ChainNodes when this cluster was last read across every namespace: from ACROSS_FROM of them
   * on, the lists every namespace needs go out across the cluster with the first reads (used if this read's nodes span
   * that many namespaces too).
   */
  namespaces?: readonly string[]
  /** Ask the running nodes themselves (RPC 26657, node-utils) while the other reads are under way. */
  chain?: ChainProbeOptions
  /** Undefined: everything the rules read. */
  objects?: ObjectReads
  /** Lists kept current by watches across runs (serve's cycles): read from them instead of listing again. */
  watched?: WatchedLists
}

/**
 * Read everything about the nodes in scope in one pass. List-type reads happen once per namespace
 * and are shared by every node in it, so a fleet costs a constant number of lists plus its logs.
 * Reads start as soon as what they depend on is known: the lists of the node's namespace go out with
 * the ChainNode lookup, logs follow the Pod lists, so a run waits for two round trips, not four.
 */
export async function collectSnapshot(client: KubeClient, options: CollectOptions): Promise<Snapshot> {
  const started = Date.now()
  const errors: CollectionError[] = []
  const { scope, redactor } = options
  const found = findChainNodes(client, scope)
  const recalledPorts = portsInScope(options.probedPorts ?? [], scope)
  if (options.chain) warmRecalled(recalledPorts, options.chain)
  const mask = (objects: KubeObject[]) => (redactor ? objects.map((o) => redactor.in(resourceFile(o), () => redactor.value(o))) : objects)
  const { objects } = options
  const wantedTargets = (targets: ListTarget[]) =>
    objects ? targets.filter((t) => (t.operatorRelease ? objects.operator : objects.kinds.includes(t.kind))) : targets
  const narrowing = objects?.narrowed ?? {}
  const narrowed = (target: ListTarget): ListTarget => (Object.hasOwn(narrowing, target.kind) ? { ...target, ...narrowing[target.kind] } : target)
  const namespaceTargets = wantedTargets(NAMESPACE_TARGETS).map(narrowed)
  const sentEarly =
    scope.kind === 'all' && !options.watched && (options.namespaces?.length ?? 0) >= ACROSS_FROM
      ? sendAcross(client, namespaceTargets, options.namespaces!.length)
      : undefined
  const read = readerFor(
    client,
    errors,
    async (items) =>
      // Unrelated ConfigMaps (a genesis can be megabytes) are dropped before anything scans them.
      mask(items.some((o) => o.kind === 'ConfigMap') ? keepRelevant(items, (await found).nodes) : items),
    options.watched,
    sentEarly,
  )
  const logOptions = redactor ? { ...options.logs, mask: (text: string, log: LogSource) => redactor.in(logFile(log), () => redactor.text(text)) } : options.logs
  // Lists only some nodes need wait for the nodes (and, for a signer, their Pods) and are read only then.
  const wanted: Wanted = async (need, namespace, podsOf) => {
    const nodes = (await found).nodes.filter((n) => namespace === undefined || n.metadata.namespace === namespace)
    if (need === 'volume-snapshots') return nodes.some(usesVolumeSnapshots)
    // A namespace or the whole cluster had its sets listed with its nodes.
    if (need === 'nodeset') return scope.kind === 'node' && nodes.some((n) => ownerSetName(n) !== undefined)
    const pods = new Map((await podsOf()).map((p) => [`${p.metadata.namespace}/${p.metadata.name}`, p]))
    return nodes.some((n) => signerTargetOf(n, pods.get(`${n.metadata.namespace}/${n.metadata.name}`)))
  }
  const early = earlyManagerLogs(client, options, logOptions)
  const clusterWide = startLists(read, wantedTargets(CLUSTER_TARGETS), [undefined], wanted)
  const knownNamespace = scope.kind === 'all' ? undefined : (scope.namespace ?? 'default')
  const namespaced = knownNamespace
    ? Promise.resolve(startLists(read, namespaceTargets, [knownNamespace], wanted))
    : found.then(({ nodes }) => startLists(read, namespaceTargets, [...new Set(nodes.map((n) => n.metadata.namespace!))], wanted))
  // An unknown node ends the run at once: the reads already sent must not surface as unhandled failures.
  for (const pending of [clusterWide.all, namespaced.then((lists) => lists.all)]) pending.catch(() => undefined)
  const { nodes, rows, sets, errors: setErrors } = await found
  errors.push(...(setErrors ?? []))
  // The ports the last read probed are open already; the first nodes' otherwise (that read's nodes without a running Pod
  // cost no forward then: 5 of the scenario fleet's 33).
  if (options.chain && recalledPorts.length === 0) warmProbes(nodes, options.chain)

  // Logs go out as soon as the Pods and Events they are chosen by are known, not after every list.
  const plan = namespaced
    .then((lists) => Promise.all([lists.of('Pod'), lists.of('Event')]))
    .then(([pods, events]) => planNodeLogs(pods, events, nodes, options.logs))
  const nodeLogs = plan.then(({ requests }) => collectLogs(client, requests, logOptions, errors))
  const operator =
    objects && !objects.operator
      ? Promise.resolve({ objects: [], logs: [] })
      : Promise.all([clusterWide.of('Deployment'), clusterWide.of('Pod')]).then(([deployments, pods]) =>
          collectOperator(client, read, {
            clusterWide: [...deployments, ...pods],
            // A set with no ChainNode yet names its operator release too (worker-name), and its failures are in that log.
            nodes: [...nodes, ...sets],
            nodeNamespaces: knownNamespace ? [knownNamespace] : undefined,
            logs: logOptions,
            errors,
            // Its Lease, Events and Certificates are for doctor's rules; a command that shows less reads the release, its
            // log and only the lists it names.
            namespaceKinds: objects ? (objects.operatorKinds ?? []) : undefined,
            early,
          }),
        )
  // The chain probe starts with the Pod list, so its sampling window overlaps the log and operator reads; the nodes'
  // own logs, once in, may decide a stall before the window ends.
  const chain = options.chain && { ...options.chain, mainLog: mainLogOf(plan, nodeLogs) }
  const chainProbes = chain
    ? namespaced.then(async (lists) => {
        // Other holders of a validator key in scope are looked for beyond the scope, alongside its own probes.
        // (doctor and collect only: a command that shows less than doctor reads no context.)
        const search = objects ? Promise.resolve(undefined) : searchKeyHolders(client, scope, nodes, chain.get, errors)
        let keySearch: KeySearch | undefined
        // Signing is counted from the first /status answers (the validator's own key, the chain's highest node): a second
        // round, beside the Cosmos SDK modules' answers (slashing window, staking, upgrade plan, governance) read the same
        // way, both while the probe window passes for the nodes read twice.
        const records = await probeChains(nodes, await lists.of('Pod'), lists.of('ConfigMap'), chain, errors, async (early) => {
          const found = await search
          keySearch = found && keptHolders(found, nodes, early)
          await Promise.all([
            chain.signingWindow
              ? probeSigning(early, nodes, { get: chain.get, window: chain.signingWindow, sources: [...early, ...(keySearch?.probes ?? [])] })
              : undefined,
            // Loaded here, not at start: its decoders (cosmjs-types) are 40% of a command's bundle, read only when chains are probed.
            import('./cosmos-probe.js').then(({ probeCosmos }) => probeCosmos(early, nodes, { get: chain.get })),
          ])
        })
        return { records, keySearch }
      })
    : Promise.resolve({ records: [], keySearch: undefined })
  const [namespaceObjects, clusterObjects, logs, operatorData, { records: probes, keySearch }, { sample }] = await Promise.all([
    namespaced.then((lists) => lists.all),
    clusterWide.all,
    nodeLogs,
    operator,
    chainProbes,
    plan,
  ])
  return {
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    collectedAt: new Date().toISOString(),
    cliVersion: options.cliVersion,
    source: { context: options.contextName, server: client.server },
    scope: options.scope,
    objects: keepRelevant(withoutDuplicates([...mask(nodes), ...mask(sets), ...namespaceObjects, ...operatorData.objects, ...clusterObjects]), nodes),
    chainNodeRows: rows,
    logs: [...logs, ...operatorData.logs],
    probes: redactor ? redactor.in(PROBES_FILE, () => probes.map((probe) => ({ ...probe, detail: redactor.text(probe.detail) }))) : probes,
    collectionErrors: errors,
    stats: { requests: client.requestCount, durationMs: Date.now() - started },
    redactions: redactor?.count ?? 0,
    ...(redactor ? { redactionsByFile: redactor.byFile() } : {}),
    ...(sample ? { logSample: sample } : {}),
    ...(keySearch ? { keySearch: redactor ? redactSearch(keySearch, redactor) : keySearch } : {}),
  }
}

function redactSearch(search: KeySearch, redactor: Redactor): KeySearch {
  return {
    ...search,
    nodes: search.nodes.map((node) => redactor.value(node)),
    probes: search.probes.map((probe) => ({ ...probe, detail: redactor.text(probe.detail) })),
  }
}

/** Drop what no rule reads (genesis ConfigMaps can be megabytes) and Events about unrelated objects. */
function keepRelevant(objects: KubeObject[], nodes: ChainNode[]): KubeObject[] {
  const nodeNames = new Set(nodes.map((n) => `${n.metadata.namespace}/${n.metadata.name}`))
  // A node's own ConfigMaps are named after it ("node", "node-..."): look up each prefix ending at a dash,
  // not every node per ConfigMap (a fleet has thousands of both).
  const related = (ns: string | undefined, name: string) => {
    if (nodeNames.has(`${ns}/${name}`)) return true
    for (let dash = name.indexOf('-'); dash > 0; dash = name.indexOf('-', dash + 1)) if (nodeNames.has(`${ns}/${name.slice(0, dash)}`)) return true
    return false
  }
  return objects.filter((obj) => {
    if (obj.kind === 'ConfigMap') return related(obj.metadata.namespace, obj.metadata.name) || obj.metadata.name.endsWith('-signer')
    return true
  })
}

/** The log reads of the nodes' Pods, and for 'auto' the look-alike Pods whose logs a sampled one stands for. */
function planNodeLogs(
  pods: Pod[],
  events: KubeEvent[],
  nodes: ChainNode[],
  { mode: requested, roles, sample: perGroup }: CollectOptions['logs'],
): { requests: LogRequest[]; sample?: Snapshot['logSample'] } {
  if (requested === 'none') return { requests: [] }
  const mode = requested === 'auto' && perGroup === undefined ? (nodes.length > FLEET_LOG_THRESHOLD ? 'unhealthy' : 'all') : requested
  const index = new SnapshotIndex({ objects: [...nodes, ...pods, ...events], logs: [] } as unknown as Snapshot)
  const plan = planLogSample(
    nodes,
    (node) => index.podOf(node),
    (obj) => index.eventsFor(obj),
    mode === 'auto' ? (perGroup ?? 0) : 0,
  )
  const requests: LogRequest[] = []
  for (const node of nodes) {
    const pod = index.podOf(node)
    if (!pod || !plan.read.has(`${pod.metadata.namespace}/${pod.metadata.name}`)) continue
    if (mode === 'unhealthy' && podReady(pod) && podRestarts(pod) === 0 && node.status?.phase === 'Running') continue
    const main = mainContainerName(node, pod)
    for (const status of allContainerStatuses(pod)) {
      if (roles && !roles.has(containerRole(status.name, main))) continue
      const base = { namespace: pod.metadata.namespace!, pod: pod.metadata.name, container: status.name, main: status.name === main }
      requests.push({ ...base, previous: false })
      if ((status.restartCount ?? 0) > 0) requests.push({ ...base, previous: true })
    }
  }
  const sample = Object.keys(plan.standIns).length > 0 ? { perGroup: perGroup ?? 0, standIns: plan.standIns } : undefined
  return { requests, sample }
}

/** The log of a node Pod's main container, as this run read it (none: the plan did not read it, or it failed). */
function mainLogOf(plan: Promise<{ requests: LogRequest[] }>, logs: Promise<LogRecord[]>): ChainProbeOptions['mainLog'] {
  const byPod = Promise.all([plan, logs]).then(([{ requests }, records]) => {
    const main = new Set(requests.filter((r) => r.main && !r.previous).map((r) => `${r.namespace}/${r.pod}/${r.container}`))
    return new Map(
      records.filter((r) => !r.previous && r.text && main.has(`${r.namespace}/${r.pod}/${r.container}`)).map((r) => [`${r.namespace}/${r.pod}`, r]),
    )
  })
  // Asked for only where the window is waited for; a failed read fails the run through its own promise.
  byPod.catch(() => undefined)
  return async (namespace, pod) => {
    const record = (await byPod).get(`${namespace}/${pod}`)
    return record && { container: record.container, lines: linesOf(record.text) }
  }
}

/**
 * The remembered Pod ports of what this read covers. They are kept per namespace: of one node, only its Pod's (named
 * after it); a set or a label selection is some of the namespace's Pods, which ones not known before the read: none.
 */
function portsInScope(ports: readonly PodPort[], scope: Scope): readonly PodPort[] {
  if (scope.kind === 'set' || scope.selector !== undefined) return []
  if (scope.kind === 'node') return ports.filter((p) => p.namespace === (scope.namespace ?? 'default') && p.pod === scope.name)
  return ports
}

/** The operator's pods can come from two lists (cluster-wide by label, and the namespace of the nodes). */
function withoutDuplicates(objects: KubeObject[]): KubeObject[] {
  const seen = new Set<string>()
  return objects.filter((o) => {
    const key = `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The manager logs of the operator Pods named by options.operatorPods, requested now; a guess nobody uses costs one read. */
function earlyManagerLogs(client: KubeClient, options: CollectOptions, logs: LogOptions): Map<string, Promise<EarlyLog>> {
  const operatorRead = (!options.objects || options.objects.operator) && (!options.logs.roles || options.logs.roles.has('operator'))
  const early = new Map<string, Promise<EarlyLog>>()
  for (const { namespace, pod } of operatorRead ? (options.operatorPods ?? []) : []) {
    const errors: CollectionError[] = []
    const read = collectLogs(client, [{ namespace, pod, container: 'manager', previous: false, main: false }], logs, errors).then(([record]) => ({
      record,
      errors,
    }))
    // Unused, its failure is nobody's concern; used, it is awaited and fails the run as any read would.
    read.catch(() => undefined)
    early.set(`${namespace}/${pod}`, read)
  }
  return early
}
