import { describe, expect, it } from 'vitest'
import type { KubeObject, Snapshot } from '../../../src/snapshot/types.js'
import { runAllRules, runRule, useBundles } from '../../helpers/bundles.js'

const find = (snapshot: Snapshot, kind: string, test: (o: KubeObject) => boolean) => snapshot.objects.find((o) => o.kind === kind && test(o))!

/** [rule, bundle, make it fire (or leave as recorded), make it a near miss] */
const CASES: [string, string, (s: Snapshot) => void, (s: Snapshot) => void][] = [
  [
    'component-version',
    'signer-pubkey',
    () => undefined,
    (s) => {
      for (const c of find(s, 'StatefulSet', (o) => o.metadata.name === 'val-1-signer').spec.template.spec.containers)
        c.image = 'ghcr.io/voluzi/cosmosigner:3.1.0'
    },
  ],
  [
    'legacy-signer-in-use',
    'legacy-signing',
    () => undefined,
    (s) => {
      delete find(s, 'ChainNode', () => true).spec.validator.tmKMS
      const pod = find(s, 'Pod', (o) => o.metadata.name === 'tmkms-0')
      pod.spec.containers = pod.spec.containers.filter((c: { name: string }) => c.name === 'app')
    },
  ],
  ['node-error', 'signer-discovery-timeout', () => undefined, (s) => (find(s, 'ChainNode', () => true).status.phase = 'Running')],
  ['block-threshold-unhealthy', 'not-syncing', () => undefined, (s) => (find(s, 'ChainNode', () => true).spec.config.blockThreshold = '0s')],
  [
    'signer-unhealthy',
    'signer-discovery-timeout',
    () => undefined,
    (s) => {
      for (const pod of s.objects.filter((o) => o.kind === 'Pod' && o.metadata.name.startsWith('val-signer-'))) {
        pod.status.phase = 'Running'
        pod.status.conditions = [{ type: 'Ready', status: 'True' }]
      }
    },
  ],
  ['runs-as-root', 'healthy', (s) => (find(s, 'Pod', (o) => o.metadata.name === 'fullnode-0').spec.securityContext = { runAsUser: 0 }), () => undefined],
  [
    'priority-class-missing',
    'healthy',
    (s) => {
      const node = find(s, 'ChainNode', (o) => o.metadata.name === 'fullnode-0')
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
  ],
]

describe('rules that companion a root cause, on recorded snapshots', () => {
  const load = useBundles(...new Set(CASES.map((c) => c[1])))

  it.each(CASES)('%s fires on (a variant of) the %s bundle', (id, bundle, fire) => {
    const snapshot = load(bundle)
    fire(snapshot)
    const found = runRule(snapshot, id)
    expect(found.length).toBeGreaterThan(0)
    expect(found[0].evidence.length).toBeGreaterThan(0)
  })

  it.each(CASES)('%s does not fire on a near miss of the %s bundle', (id, bundle, _fire, nearMiss) => {
    const snapshot = load(bundle)
    nearMiss(snapshot)
    expect(runRule(snapshot, id)).toEqual([])
  })

  it('leaves a consequence out when its root cause fires on the same node, and says so', () => {
    const report = runAllRules(load('signer-pubkey'))
    expect(report.findings.map((f) => f.ruleId)).toEqual(['signer-pubkey'])
    expect(report.suppressed).toContainEqual({
      ruleId: 'component-version',
      node: { kind: 'ChainNode', namespace: 'sc-signer-pubkey', name: 'val-1' },
      by: 'signer-pubkey',
    })
  })
})
