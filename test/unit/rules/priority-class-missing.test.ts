import { companionCase, findObject } from '../../helpers/bundles.js'

companionCase(
  'priority-class-missing',
  'healthy',
  (s) => {
    const node = findObject(s, 'ChainNode', 'fullnode-0')
    s.objects.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e1', namespace: 'sc-healthy' },
      involvedObject: { kind: 'ChainNode', name: 'fullnode-0', namespace: 'sc-healthy', uid: node.metadata.uid },
      type: 'Warning',
      reason: 'NodeError',
      message: 'Pod failed to start: pods "fullnode-0" is forbidden: no PriorityClass with name cosmopilot-nodes was found',
      lastTimestamp: s.collectedAt,
    })
  },
  () => undefined,
)
