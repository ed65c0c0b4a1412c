import type { ChainNode, Container, ContainerStatus, Pod } from './kinds.js'

export const NODE_UTILS = 'node-utils'
/** node-utils profiling listener, fixed on 127.0.0.1 in the Pod (spec §4.1, §8). */
export const PROFILING_PORT = 6666
export const DISCOVERY_GATE = 'wait-cosmosigner-discovery'
export const LEGACY_SIGNER_CONTAINERS = ['tmkms', 'vault-token-renewer'] as const

/** What a container's log is to a diagnosis: the rules name the roles whose logs they read. */
export type LogRole = 'main' | 'node-utils' | 'gate' | 'legacy-signer' | 'operator' | 'other'

/** The role of a node Pod's container (`main` is the Pod's main container name). */
export function containerRole(container: string, main: string | undefined): LogRole {
  if (container === main) return 'main'
  if (container === NODE_UTILS) return 'node-utils'
  if (container === DISCOVERY_GATE) return 'gate'
  return (LEGACY_SIGNER_CONTAINERS as readonly string[]).includes(container) ? 'legacy-signer' : 'other'
}

/** Operator release lines we know how to read: 5.0.0 names the main container `app`; 3.x names it after the binary. */
export type OperatorLine = '5.x' | '3.x' | 'unknown'

/** The remote signer a node is a target of: its Pod carries cosmosigner-target=<signer>, set children their ChainNode too. */
export function signerTargetOf(node: ChainNode, pod: Pod | undefined): string | undefined {
  return pod?.metadata.labels?.['cosmosigner-target'] ?? node.metadata.labels?.['cosmosigner-target']
}

/** The value a container sets for an environment variable, when it sets one literally. */
export function containerEnv(container: { env?: { name: string; value?: string }[] } | undefined, name: string): string | undefined {
  return container?.env?.find((entry) => entry.name === name)?.value
}

/** The ChainNodeSet a node belongs to: its owner reference, or the nodeset label of set children. */
export function ownerSetName(node: ChainNode): string | undefined {
  return node.metadata.ownerReferences?.find((owner) => owner.kind === 'ChainNodeSet')?.name ?? node.metadata.labels?.nodeset
}

/** Whether a node takes (and verifies) volume snapshots or restores its data from one. */
export function usesVolumeSnapshots(node: ChainNode): boolean {
  return Boolean(node.spec?.persistence?.snapshots || node.spec?.persistence?.restoreFromSnapshot)
}

export const podContainers = (pod: Pod | undefined): Container[] => pod?.spec?.containers ?? []
export const podInitContainers = (pod: Pod | undefined): Container[] => pod?.spec?.initContainers ?? []

/** The container running the chain binary: `app` on the 5.0.0 line, `.spec.app.app` (e.g. gaiad) before. */
export function mainContainerName(node: ChainNode | undefined, pod: Pod | undefined): string | undefined {
  const names = podContainers(pod).map((c) => c.name)
  if (names.includes('app')) return 'app'
  const binary: string | undefined = node?.spec?.app?.app
  if (binary && names.includes(binary)) return binary
  return names.find((name) => !(LEGACY_SIGNER_CONTAINERS as readonly string[]).includes(name)) ?? (binary || (pod ? undefined : 'app'))
}

export function detectOperatorLine(node: ChainNode | undefined, pod: Pod | undefined): OperatorLine {
  if (!pod) return 'unknown'
  const gate = podInitContainers(pod).find((c) => c.name === DISCOVERY_GATE)
  const gateCommand = gate?.args?.[0] ?? gate?.command?.[0]
  if (gateCommand === 'wait-for-signer') return '5.x'
  if (gateCommand === 'wait-for-dns') return '3.x'
  const nodeUtils = podInitContainers(pod).find((c) => c.name === NODE_UTILS) ?? podContainers(pod).find((c) => c.name === NODE_UTILS)
  if (containerEnv(nodeUtils, 'TMKMS_PROXY') !== undefined) return '3.x'
  const main = mainContainerName(node, pod)
  if (main === 'app') return '5.x'
  if (main && main === node?.spec?.app?.app) return '3.x'
  return 'unknown'
}

export function containerStatus(pod: Pod | undefined, name: string): ContainerStatus | undefined {
  const all = [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])]
  return all.find((status) => status.name === name)
}

export function allContainerStatuses(pod: Pod | undefined): ContainerStatus[] {
  return [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])]
}

/** The image a container runs: the status image when reported (it reflects what was pulled), else the spec. */
export function containerImage(pod: Pod | undefined, name: string): string | undefined {
  const spec = [...podInitContainers(pod), ...podContainers(pod)].find((c) => c.name === name)
  return spec?.image ?? containerStatus(pod, name)?.image
}

/** `kubectl get pod` STATUS column logic, reduced to what rules need. */
export function podReason(pod: Pod | undefined): string {
  if (!pod) return 'Missing'
  if (pod.metadata.deletionTimestamp) return 'Terminating'
  for (const status of pod.status?.initContainerStatuses ?? []) {
    const terminated = status.state?.terminated
    if (terminated && terminated.exitCode !== 0) return `Init:${terminated.reason ?? 'Error'}`
    const waiting = status.state?.waiting
    if (waiting?.reason && waiting.reason !== 'PodInitializing') return `Init:${waiting.reason}`
  }
  for (const status of pod.status?.containerStatuses ?? []) {
    if (status.state?.waiting?.reason) return status.state.waiting.reason
    if (status.state?.terminated?.reason) return status.state.terminated.reason
  }
  return pod.status?.phase ?? 'Unknown'
}

export function podReady(pod: Pod | undefined): boolean {
  return (pod?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
}

/** Restart count across containers, counting only those kubelet restarts in place. */
export function podRestarts(pod: Pod | undefined): number {
  return allContainerStatuses(pod).reduce((sum, status) => sum + (status.restartCount ?? 0), 0)
}

/** Version in an image reference: the tag, or undefined for digests and untagged images. */
export function imageTag(image: string | undefined): string | undefined {
  if (!image || image.includes('@')) return undefined
  const lastSlash = image.lastIndexOf('/')
  const colon = image.indexOf(':', lastSlash + 1)
  return colon === -1 ? undefined : image.slice(colon + 1)
}
