import type { CollectionError, KubeObject, LogRecord } from '../snapshot/types.js'
import type { Reader } from './lists.js'
import type { KubeClient } from './kube-client.js'
import { collectLogs, type LogOptions, type LogRequest } from './logs.js'
import { CLUSTER_TARGETS, NAMESPACE_TARGETS, OPERATOR_NAMESPACE_TARGETS, OPERATOR_PODS } from './targets.js'
import { operatorWorkerName } from '../snapshot/operator.js'
import { selectorMatches } from '../snapshot/label-selector.js'
import { type ChainNode, type ChainNodeSet, isKind, type Pod, type Workload } from '../snapshot/kinds.js'

export interface OperatorInput {
  /** What the cluster-wide lists returned: labelled operator Deployments and their Pods among them. */
  clusterWide: KubeObject[]
  /** The nodes and sets in scope (their worker-name label names the release). */
  nodes: (ChainNode | ChainNodeSet)[]
  /** Namespaces whose lists were read for the nodes already (their Events need no second read). */
  nodeNamespaces?: string[]
  logs: LogOptions
  errors: CollectionError[]
  /** Which of the releases' Lease, Events and Certificates to read too (undefined: all of them). */
  namespaceKinds?: readonly string[]
  /** Manager logs asked for before the operator's Pods were known, by namespace/pod; used when the Pod is still the one. */
  early?: ReadonlyMap<string, Promise<EarlyLog>>
}

/** A manager log read on a guess, with the errors it would add to the run if the guess is used. */
export interface EarlyLog {
  record: LogRecord
  errors: CollectionError[]
}

/**
 * The operator releases that reconcile the nodes in scope (WORKER_NAME equals the node's worker-name
 * label, reference §7.5): their Lease, Events, Certificates and manager logs. Other releases in the
 * cluster are listed but not read further: they cannot explain these nodes.
 */
export async function collectOperator(client: KubeClient, read: Reader, input: OperatorInput): Promise<{ objects: KubeObject[]; logs: LogRecord[] }> {
  let deployments: Workload[] = input.clusterWide.filter((o) => isKind(o, 'Deployment'))
  const byImage = deployments.length === 0
  if (byImage) deployments = await findOperatorByImage(read)
  const workers = new Set(input.nodes.map((node) => node.metadata.labels?.['worker-name'] ?? ''))
  const responsible = deployments.filter((d) => workers.has(operatorWorkerName(d)))
  const namespaces = [...new Set(responsible.map((d) => d.metadata.namespace!))]

  const targets = (ns: string) => [
    ...(byImage ? [OPERATOR_PODS] : []),
    // Events of a namespace that holds nodes were read with them.
    ...OPERATOR_NAMESPACE_TARGETS.filter(
      (t) => (input.namespaceKinds?.includes(t.kind) ?? true) && !(input.nodeNamespaces?.includes(ns) && NAMESPACE_TARGETS.some((n) => n.kind === t.kind)),
    ),
  ]
  const perNamespace = Promise.all(namespaces.flatMap((ns) => targets(ns).map((target) => read(target, ns)))).then((lists) => lists.flat())
  const labelledPods = input.clusterWide.filter((o) => isKind(o, 'Pod'))
  const managerLogs = (pods: Pod[]) => (input.logs.roles && !input.logs.roles.has('operator') ? [] : managerLogRequests(responsible, pods))
  const logsOf = async (requests: LogRequest[]): Promise<LogRecord[]> => {
    const early = requests.map((request) => input.early?.get(`${request.namespace}/${request.pod}`))
    const rest = collectLogs(
      client,
      requests.filter((_, i) => !early[i]),
      input.logs,
      input.errors,
    )
    const [got, late] = await Promise.all([Promise.all(early), rest])
    let next = 0
    return got.map((hit) => {
      if (!hit) return late[next++]
      input.errors.push(...hit.errors)
      return hit.record
    })
  }
  const [extra, labelledLogs] = await Promise.all([perNamespace, logsOf(managerLogs(labelledPods))])
  const unlabelledLogs = byImage ? await logsOf(managerLogs(extra.filter((obj) => isKind(obj, 'Pod')))) : []
  return { objects: [...deployments, ...labelledPods, ...extra], logs: [...labelledLogs, ...unlabelledLogs] }
}

async function findOperatorByImage(read: Reader): Promise<Workload[]> {
  // Installs without the chart's labels: fall back to the manager container's image.
  const all = await read({ ...CLUSTER_TARGETS.find((t) => t.kind === 'Deployment')!, labelSelector: undefined })
  return all.filter(
    (d): d is Workload =>
      isKind(d, 'Deployment') && (d.spec?.template?.spec?.containers ?? []).some((c) => c.name === 'manager' && /cosmopilot/.test(c.image ?? '')),
  )
}

function managerLogRequests(deployments: Workload[], pods: Pod[]): LogRequest[] {
  return pods
    .filter((pod) => deployments.some((d) => d.metadata.namespace === pod.metadata.namespace && selectorMatches(d.spec?.selector, pod.metadata.labels ?? {})))
    .filter((pod) => (pod.spec?.containers ?? []).some((c) => c.name === 'manager'))
    .map((pod) => ({ namespace: pod.metadata.namespace!, pod: pod.metadata.name, container: 'manager', previous: false, main: false }))
}
