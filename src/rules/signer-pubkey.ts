import { refOf } from '../snapshot/index.js'
import { DISCOVERY_GATE, NODE_UTILS, containerImage, containerStatus, detectOperatorLine, imageTag, mainContainerName } from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { byReason, eventEvidence, field, grepLogs, matchingEvents } from '../engine/rule-helpers.js'
import { signerOf } from '../analysis/signer-context.js'
import { MINIMUM_VERSIONS, versionAtLeast } from '../analysis/versions.js'

export default defineRule<{
  occurrences: number
  signerImage?: string
  signerOk: boolean | 'unknown'
  signerMinimum: string
  nodeUtilsImage?: string
  nodeUtilsOk: boolean | 'unknown'
  nodeUtilsMinimum: string
  noEndpoints: boolean
}>({
  id: 'signer-pubkey',
  title: "Node exits repeatedly with can't get pubkey",
  severity: 'error',
  specRow: "Repeated `can't get pubkey` exits after the gate passes",
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
    const signerContainer = signer?.statefulSet?.spec?.template?.spec?.containers?.find((c: { name: string }) => c.name === 'cosmosigner')
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
        },
        evidence,
      },
    ]
  },
  summary: (d) => `the node exits with "can't get pubkey" (${d.occurrences} occurrences)`,
  cause: (d) =>
    [
      d.signerOk === false ? `remote signer image ${d.signerImage} is older than ${d.signerMinimum}` : '',
      d.nodeUtilsOk === false ? `node-utils image ${d.nodeUtilsImage} is older than ${d.nodeUtilsMinimum}` : '',
      d.noEndpoints ? 'the signer discovery Service has no endpoints' : '',
    ]
      .filter(Boolean)
      .join('; ') || 'no signer completed the private-validator handshake in time; needs investigation',
  action: (d) =>
    `Verify the remote signer is version ${d.signerMinimum} or newer and node-utils ${d.nodeUtilsMinimum} or newer, including image overrides; then read the signer leader logs.`,
})
