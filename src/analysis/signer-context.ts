import type { SnapshotIndex } from '../snapshot/index.js'
import { signerTargetOf, type OperatorLine } from '../snapshot/node-layout.js'
import type { KubeObject } from '../snapshot/types.js'
import { selectorMatches, type LabelSelector } from '../snapshot/label-selector.js'
import type { ChainNode, NetworkPolicy, Pod, Workload } from '../snapshot/kinds.js'

/** What the cluster holds about the remote signer serving a node. */
export interface SignerContext {
  name: string
  discoveryService?: KubeObject
  endpointAddresses: number
  statefulSet?: Workload
  pods: Pod[]
}

/**
 * cosmosigner serves /livez and /readyz on 8080 from 3.1.0, the 5.x line; the 3.0.0 line runs 0.2.x, whose only
 * probes are TCP on 7070, so there its Pod readiness is all there is to read.
 */
export const signerServesHttpHealth = (line: OperatorLine): boolean => line !== '3.x'

/** Signer targets carry the label cosmosigner-target=<signer>; its discovery Service is <signer>-privval. */
export function signerOf(index: SnapshotIndex, node: ChainNode, pod: Pod | undefined): SignerContext | undefined {
  const name = signerTargetOf(node, pod)
  if (!name) return undefined
  const ns = node.metadata.namespace
  const discoveryService = index.get('Service', ns, `${name}-privval`)
  const pods = index
    .list('Pod', ns)
    .filter(
      (p) =>
        p.metadata.labels?.['app.kubernetes.io/instance'] === name ||
        (p.metadata.name.startsWith(`${name}-`) && /^\d+$/.test(p.metadata.name.slice(name.length + 1))),
    )
  return {
    name,
    discoveryService,
    endpointAddresses: discoveryAddresses(index, ns, `${name}-privval`).length,
    statefulSet: index.get('StatefulSet', ns, name),
    pods,
  }
}

interface Address {
  ip: string
  pod?: string
}

/** Addresses behind a Service, from its EndpointSlices (current API) and its Endpoints (older clusters). */
export function discoveryAddresses(index: SnapshotIndex, namespace: string | undefined, service: string): Address[] {
  const fromSlices = index
    .list('EndpointSlice', namespace)
    .filter((slice) => slice.metadata.labels?.['kubernetes.io/service-name'] === service)
    .flatMap((slice) => slice.endpoints ?? [])
    .flatMap((endpoint) => (endpoint.addresses ?? []).map((ip) => ({ ip, pod: endpoint.targetRef?.kind === 'Pod' ? endpoint.targetRef.name : undefined })))
  const subsets: { addresses?: EndpointAddress[]; notReadyAddresses?: EndpointAddress[] }[] = index.get('Endpoints', namespace, service)?.subsets ?? []
  const fromEndpoints = subsets
    .flatMap((s) => [...(s.addresses ?? []), ...(s.notReadyAddresses ?? [])])
    .map((a) => ({ ip: a.ip, pod: a.targetRef?.kind === 'Pod' ? a.targetRef.name : undefined }))
  const seen = new Set<string>()
  return [...fromSlices, ...fromEndpoints].filter((a) => !seen.has(a.ip) && seen.add(a.ip))
}

interface EndpointAddress {
  ip: string
  targetRef?: { kind?: string; name?: string }
}

export const SIGNER_PORT = 26659

/** Pods behind the discovery Service <signer>-privval, by their endpoint target references. */
export function signerTargets(index: SnapshotIndex, node: ChainNode, signer: string): string[] {
  return [...new Set(discoveryAddresses(index, node.metadata.namespace, `${signer}-privval`).flatMap((a) => (a.pod ? [a.pod] : [])))]
}

/**
 * NetworkPolicies that select the node pod for ingress and allow TCP 26659 from none of the signer pods
 * (a policy that allows the port only from other peers still blocks the signer).
 */
export function policiesBlockingSigner(index: SnapshotIndex, pod: Pod, signerPods: Pod[]): NetworkPolicy[] {
  const labels = pod.metadata.labels ?? {}
  return index.list('NetworkPolicy', pod.metadata.namespace).filter((policy) => {
    const spec = policy.spec ?? {}
    const selects = selectorMatches(spec.podSelector ?? {}, labels)
    const governsIngress = (spec.policyTypes ?? ['Ingress']).includes('Ingress')
    if (!selects || !governsIngress) return false
    const rules: IngressRule[] = spec.ingress ?? []
    const allows = rules.some(
      (rule) =>
        fromSigner(rule, signerPods) &&
        (!rule.ports ||
          rule.ports.length === 0 ||
          rule.ports.some(
            (p) =>
              (p.protocol ?? 'TCP') === 'TCP' &&
              (p.port === undefined ||
                p.port === SIGNER_PORT ||
                p.port === 'privvalidator' ||
                (typeof p.port === 'number' && p.endPort !== undefined && p.port <= SIGNER_PORT && SIGNER_PORT <= p.endPort)),
          )),
    )
    return !allows
  })
}

interface IngressRule {
  ports?: { port?: number | string; endPort?: number; protocol?: string }[]
  from?: { podSelector?: LabelSelector; ipBlock?: unknown; namespaceSelector?: unknown }[]
}

function fromSigner(rule: IngressRule, signerPods: Pod[]): boolean {
  if (!rule.from || rule.from.length === 0) return true
  return rule.from.some((peer) => {
    if (peer.ipBlock || (peer.namespaceSelector && !peer.podSelector)) return true
    const selector = peer.podSelector ?? {}
    // With no signer Pod to test, only a selector that admits every Pod is known to admit the signer.
    if (signerPods.length === 0) return Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0
    return signerPods.some((sp) => selectorMatches(selector, sp.metadata.labels ?? {}))
  })
}

/**
 * A secrets store refusing the legacy signer: Vault's "permission denied" (its Go client adds "Code: 403"), tmkms's
 * HTTP client "status code 403", the renewer's "failed to renew". A bare 403 also matches block heights and vote ids
 * in tmkms's signing lines.
 */
export const SECRETS_STORE_REFUSAL = /permission denied|forbidden|failed to renew|code:? 403\b/i

/** The secrets-store (Vault) settings of a legacy tmKMS signer: the CRD calls the provider `hashicorp`. */
export function vaultProvider(tmkms: { provider?: { hashicorp?: VaultSettings; vault?: VaultSettings } } | undefined): VaultSettings | undefined {
  return tmkms?.provider?.hashicorp ?? tmkms?.provider?.vault
}
interface VaultSettings {
  autoRenewToken?: boolean
  uploadGenerated?: boolean
}
