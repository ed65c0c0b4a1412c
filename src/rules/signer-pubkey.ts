import { refOf } from '../snapshot/index.js'
import {
  DISCOVERY_GATE,
  NODE_UTILS,
  containerImage,
  containerStatus,
  detectOperatorLine,
  imageTag,
  mainContainerName,
  podReady,
} from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { signerOf } from '../analysis/signer-context.js'
import { MINIMUM_VERSIONS, versionAtLeast } from '../analysis/versions.js'
import { byReason, matchingEvents } from '../snapshot/events.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { grepLogs } from '../analysis/grep-logs.js'

export default defineRule<{
  occurrences: number
  signerImage?: string
  signerOk: boolean | 'unknown'
  signerMinimum: string
  nodeUtilsImage?: string
  nodeUtilsOk: boolean | 'unknown'
  nodeUtilsMinimum: string
  noEndpoints: boolean
  signer?: string
  signerPodsReady: number
  signerPodsRunning: number
  signerPods: number
  node: string
  namespace: string
}>({
  id: 'signer-pubkey',
  title: "Node exits repeatedly with can't get pubkey",
  severity: 'error',
  specRow: "Repeated `can't get pubkey` exits after the gate passes",
  // The node exits before it runs: it neither answers nor signs.
  explains: ['rpc-unreachable', 'not-syncing', 'validator-missed-blocks', 'phase-stuck'],
  logs: ['main'],
  check({ index, node, pod }) {
    if (!pod) return []
    const main = mainContainerName(node, pod)
    const lines = grepLogs(index, pod, main, /can't get pubkey/, 5)
    const status = containerStatus(pod, main ?? '')
    const terminatedMessage = String(status?.state?.terminated?.message ?? status?.lastState?.terminated?.message ?? '')
    if (lines.length === 0 && !/can't get pubkey/.test(terminatedMessage)) return []
    const gate = containerStatus(pod, DISCOVERY_GATE)
    const restarts = matchingEvents(index, node, byReason('NodeRestarted', 'NodeError'))
    const signer = signerOf(index, node, pod)
    const signerContainer = signer?.statefulSet?.spec?.template?.spec?.containers?.find((c) => c.name === 'cosmosigner')
    const signerImage: string | undefined = signerContainer?.image ?? signer?.pods.map((p) => containerImage(p, 'cosmosigner')).find(Boolean)
    const nodeUtilsImage = containerImage(pod, NODE_UTILS)
    const line = detectOperatorLine(node, pod)
    const minimum = MINIMUM_VERSIONS[line === '3.x' ? '3.x' : '5.x']
    const evidence: Evidence[] = [
      ...lines,
      ...(gate ? [field(pod, `initContainer ${DISCOVERY_GATE}`, gate.state?.terminated ? `exit ${gate.state.terminated.exitCode}` : 'not terminated')] : []),
      ...restarts.map(eventEvidence),
      ...(signerImage ? [{ kind: 'field' as const, source: `signer ${signer?.name}`, text: `image ${signerImage}` }] : []),
      ...(nodeUtilsImage ? [field(pod, 'container node-utils image', nodeUtilsImage)] : []),
      ...(signer?.statefulSet
        ? [field(signer.statefulSet, '.status.readyReplicas', `${signer.statefulSet.status?.readyReplicas ?? 0}/${signer.statefulSet.spec?.replicas ?? 0}`)]
        : []),
    ]
    return [
      {
        subject: refOf(node),
        data: {
          occurrences: lines.length + restarts.length,
          signerImage,
          signerOk: signerImage ? versionAtLeast(imageTag(signerImage), minimum.signer) : 'unknown',
          signerMinimum: minimum.signer,
          nodeUtilsImage,
          nodeUtilsOk: versionAtLeast(imageTag(nodeUtilsImage), minimum.nodeUtils),
          nodeUtilsMinimum: minimum.nodeUtils,
          noEndpoints: Boolean(signer) && signer!.endpointAddresses === 0,
          signer: signer?.name,
          signerPodsReady: signer?.pods.filter(podReady).length ?? 0,
          signerPodsRunning: signer?.pods.filter((p) => p.status?.phase === 'Running').length ?? 0,
          // The StatefulSet's wanted replicas count too: a signer scaled to 3 with no Pod left is not "0 of 0".
          signerPods: Math.max(signer?.pods.length ?? 0, signer?.statefulSet?.spec?.replicas ?? 0),
          node: node.metadata.name,
          namespace: node.metadata.namespace ?? '',
        },
        evidence,
      },
    ]
  },
  summary: (d) => `the node exits with "can't get pubkey" (${d.occurrences} occurrences)`,
  cause: (d) =>
    [
      // The most basic fault first: a signer with no ready Pod cannot answer, whatever its version.
      signerDown(d) ? `no signer Pod of ${d.signer} is ready (${d.signerPodsRunning} of ${d.signerPods} running)` : '',
      d.signerOk === false ? `remote signer image ${d.signerImage} is older than ${d.signerMinimum}` : '',
      d.nodeUtilsOk === false ? `node-utils image ${d.nodeUtilsImage} is older than ${d.nodeUtilsMinimum}` : '',
      d.noEndpoints && !signerDown(d) ? 'the signer discovery Service has no endpoints' : '',
    ]
      .filter(Boolean)
      .join('; ') || 'no signer completed the private-validator handshake in time; needs investigation',
  action: (d) => {
    // Only what the evidence does not already show as met: versions read as new enough are not advised again.
    const versions = [
      d.signerOk === true ? '' : `the remote signer is version ${d.signerMinimum} or newer`,
      d.nodeUtilsOk === true ? '' : `node-utils is ${d.nodeUtilsMinimum} or newer`,
    ].filter(Boolean)
    const steps = [
      signerDown(d)
        ? `Bring the signer up first: see why its Pods are not ready (kubectl chainnode signer ${d.node} -n ${d.namespace}, kubectl describe statefulset ${d.signer} -n ${d.namespace})`
        : '',
      versions.length ? `Verify ${versions.join(' and ')}, including image overrides` : '',
      'read the signer leader logs',
    ].filter(Boolean)
    return `${steps.join('; then ')}.`.replace(/^./, (c) => c.toUpperCase())
  },
})

const signerDown = (d: { signer?: string; signerPodsReady: number; signerPods: number }) => Boolean(d.signer) && d.signerPods > 0 && d.signerPodsReady === 0
