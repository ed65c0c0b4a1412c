import type { SnapshotIndex } from '../snapshot/index.js'
import { LEGACY_SIGNER_CONTAINERS, NODE_UTILS, containerImage, detectOperatorLine, imageTag, podContainers } from '../snapshot/node-layout.js'
import type { ProbeRecord } from '../snapshot/types.js'
import type { Evidence } from '../engine/define-rule.js'
import { SECRETS_STORE_REFUSAL, policiesBlockingSigner, signerOf, signerTargets, vaultProvider } from './signer-context.js'
import { MINIMUM_VERSIONS, versionAtLeast } from './versions.js'
import { grepLogs } from './grep-logs.js'
import type { ChainNode } from '../snapshot/kinds.js'

export type VersionVerdict = 'ok' | 'old' | 'unknown'

export interface SignerReport {
  node: string
  line: string
  signer?: {
    name: string
    discoveryService: boolean
    endpoints: number
    replicas?: string
    image?: string
    version: VersionVerdict
    minimum: string
    instances: { pod: string; phase?: string; livez?: ProbeRecord; readyz?: ProbeRecord }[]
    gate: ProbeRecord[]
    blockingPolicies: string[]
  }
  nodeUtils: { image?: string; version: VersionVerdict; minimum: string }
  legacy?: { containers: string[]; autoRenewToken: boolean; uploadGenerated: boolean; permissionErrors: Evidence[] }
  problems: string[]
}

const verdict = (image: string | undefined, minimum: string): VersionVerdict => {
  const ok = versionAtLeast(imageTag(image), minimum)
  return ok === 'unknown' ? 'unknown' : ok ? 'ok' : 'old'
}

export const LEGACY_ADVICE =
  'The legacy signer, its vault-token-renewer sidecar and autoRenewToken are deprecated: migrate to the remote signer. The legacy path is refused after the 5.0.0 line, so the migration must be completed on 4.x following the 5.0.0 upgrade guide.'
export const SECRETS_STORE_ADVICE =
  'The secrets-store token must permit the operations enabled, including key upload when uploadGenerated is set (and access to the cluster-binding registry for the remote signer).'

/** Everything known about the signing path of one node, from the snapshot and any probes in it. */
export function signerReport(index: SnapshotIndex, node: ChainNode): SignerReport {
  const pod = index.podOf(node)
  const line = detectOperatorLine(node, pod)
  const minimum = MINIMUM_VERSIONS[line === '3.x' ? '3.x' : '5.x']
  const nodeUtilsImage = containerImage(pod, NODE_UTILS)
  const report: SignerReport = {
    node: `${node.metadata.namespace}/${node.metadata.name}`,
    line,
    nodeUtils: { image: nodeUtilsImage, version: verdict(nodeUtilsImage, minimum.nodeUtils), minimum: minimum.nodeUtils },
    problems: [],
  }
  const signer = signerOf(index, node, pod)
  if (signer) {
    const probes = index.snapshot.probes.filter((p) => p.namespace === node.metadata.namespace)
    const image: string | undefined =
      signer.statefulSet?.spec?.template?.spec?.containers?.find((c) => c.name === 'cosmosigner')?.image ??
      signer.pods.map((p) => containerImage(p, 'cosmosigner')).find(Boolean)
    const endpointPods = new Set(signerTargets(index, node, signer.name))
    report.signer = {
      name: signer.name,
      discoveryService: Boolean(signer.discoveryService),
      endpoints: signer.endpointAddresses,
      replicas: signer.statefulSet ? `${signer.statefulSet.status?.readyReplicas ?? 0}/${signer.statefulSet.spec?.replicas ?? 0}` : undefined,
      image,
      version: verdict(image, minimum.signer),
      minimum: minimum.signer,
      instances: signer.pods.map((p) => ({
        pod: p.metadata.name,
        phase: p.status?.phase,
        livez: probes.find((r) => r.kind === 'signer-http' && r.pod === p.metadata.name && r.target.endsWith('/livez')),
        readyz: probes.find((r) => r.kind === 'signer-http' && r.pod === p.metadata.name && r.target.endsWith('/readyz')),
      })),
      gate: probes.filter((r) => r.kind === 'signer-gate' && endpointPods.has(r.pod)),
      blockingPolicies: pod ? policiesBlockingSigner(index, pod, signer.pods).map((p) => p.metadata.name) : [],
    }
    const s = report.signer
    if (!s.discoveryService) report.problems.push(`discovery Service ${s.name}-privval does not exist`)
    else if (s.endpoints === 0) report.problems.push(`discovery Service ${s.name}-privval has no endpoints`)
    if (s.instances.length === 0) report.problems.push(`no Pod of signer ${s.name} exists`)
    for (const instance of s.instances) {
      for (const probe of [instance.livez, instance.readyz])
        if (probe && !probe.ok) report.problems.push(`${instance.pod} ${probe.target.split('/').pop()}: ${probe.detail}`)
    }
    for (const gate of s.gate) if (!gate.ok) report.problems.push(`gate check on ${gate.target}: ${gate.detail}`)
    for (const policy of s.blockingPolicies) report.problems.push(`NetworkPolicy ${policy} would block TCP 26659 between the signer and the node`)
    if (s.version !== 'ok')
      report.problems.push(
        s.version === 'old'
          ? `signer image ${s.image} is older than ${s.minimum}`
          : `signer version of ${s.image ?? '(no image found)'} is unknown (not a semver tag)`,
      )
    if (report.nodeUtils.version !== 'ok') {
      report.problems.push(
        report.nodeUtils.version === 'old'
          ? `node-utils image ${nodeUtilsImage} is older than ${minimum.nodeUtils}`
          : `node-utils version of ${nodeUtilsImage ?? '(none)'} is unknown`,
      )
    }
  }
  const tmkms = node.spec?.validator?.tmKMS
  const legacyContainers = podContainers(pod)
    .map((c) => c.name)
    .filter((name) => (LEGACY_SIGNER_CONTAINERS as readonly string[]).includes(name))
  if (tmkms || legacyContainers.length) {
    report.legacy = {
      containers: legacyContainers,
      autoRenewToken: Boolean(vaultProvider(tmkms)?.autoRenewToken),
      uploadGenerated: Boolean(vaultProvider(tmkms)?.uploadGenerated),
      permissionErrors: legacyContainers.flatMap((c) => grepLogs(index, pod, c, SECRETS_STORE_REFUSAL, 3)),
    }
    report.problems.push('the deprecated legacy signer is in use')
    if (report.legacy.permissionErrors.length) report.problems.push('the secrets store refused operations of the legacy signer')
  }
  return report
}
