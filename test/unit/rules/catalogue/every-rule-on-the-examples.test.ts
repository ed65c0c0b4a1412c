import { describe, expect, it } from 'vitest'
import { runRules } from '../../../../src/engine/run-rules.js'
import type { Rule } from '../../../../src/engine/define-rule.js'
import { SnapshotIndex } from '../../../../src/snapshot/index.js'
import type { Snapshot } from '../../../../src/snapshot/types.js'
import { type Editable, editable, findObject, ruleById, runAllRules, runRule, useBundles } from '../../../helpers/bundles.js'
import { operatorEvent } from '../../../helpers/operator-records.js'
import { healthyNode as node, minutesBefore as before, useHealthy } from '../../../helpers/healthy-edits.js'

/** The example bundles were recorded from the test-cluster scenarios (scripts/record-examples.ts). */

function findings(snapshot: Snapshot, only?: string) {
  const found = only ? runRule(snapshot, only) : runAllRules(snapshot).findings
  return [...new Set(found.map((f) => f.ruleId))]
}

const dropObjects = (snapshot: Snapshot, test: (o: Editable) => boolean) => (snapshot.objects = editable(snapshot).filter((o) => !test(o)))
const dropLogLines = (snapshot: Snapshot, pattern: RegExp) => {
  for (const log of snapshot.logs)
    log.text = log.text
      .split('\n')
      .filter((line) => !pattern.test(line))
      .join('\n')
}

/** A reconcile that went through after the recorded failures: the operator has recovered. */
const appendManagerLines = (snapshot: Snapshot, lines: object[]) => {
  const log = snapshot.logs.find((l) => l.container === 'manager')!
  log.text += lines.map((line) => `${snapshot.collectedAt} ${JSON.stringify(line)}\n`).join('')
}

/**
 * [rule, bundle it must fire on, the smallest change that removes its signal (a near miss it must not fire on),
 * other rules that rightly fire on the bundle too]
 */
const CASES: [string, string, (s: Snapshot) => void, string[]?][] = [
  [
    'image-pull',
    'image-pull',
    (s) => {
      const pod = findObject(s, 'Pod', 'pull-0')
      for (const status of pod.status.containerStatuses) status.state = { running: { startedAt: '2026-11-22T10:00:00Z' } }
    },
  ],
  [
    'not-syncing',
    'not-syncing',
    (s) => {
      dropObjects(s, (o) => o.kind === 'Event' && o.reason === 'Unhealthy')
      findObject(s, 'ChainNode', 'stuck-0').status.phase = 'Running'
      // The app log alone says it too (no peers, nothing to dial): a near miss keeps only its start.
      dropLogLines(s, /Ensure peers|No addresses to dial|dialing failed/)
    },
  ],
  [
    'snapshot-verify-failing',
    'snapshot-verify',
    (s) => {
      findObject(s, 'ChainNode', 'snap-0').spec.persistence.snapshots.verify = false
    },
  ],
  [
    'restore-not-starting',
    'restore-not-starting',
    (s) => {
      delete findObject(s, 'ChainNode', 'restore-0').spec.persistence.restoreFromSnapshot
    },
  ],
  [
    'pvc-not-growing',
    'pvc-not-growing',
    (s) => {
      findObject(s, 'StorageClass', findObject(s, 'PersistentVolumeClaim', 'grow-0').spec.storageClassName).allowVolumeExpansion = true
    },
  ],
  ['profiling-unavailable', 'profiling-unavailable', (s) => dropLogLines(s, /profil|6666/i)],
  [
    'signer-discovery-timeout',
    'signer-discovery-timeout',
    (s) => {
      const pod = findObject(s, 'Pod', 'val-0')
      for (const status of pod.status.initContainerStatuses)
        if (status.name === 'wait-cosmosigner-discovery') status.state = { terminated: { exitCode: 0, reason: 'Completed' } }
    },
  ],
  [
    'signer-pubkey',
    'signer-pubkey',
    (s) => {
      dropLogLines(s, /can't get pubkey/)
      const pod = findObject(s, 'Pod', 'val-1')
      for (const status of pod.status.containerStatuses ?? []) {
        for (const state of [status.state, status.lastState]) if (state?.terminated) state.terminated.message = ''
      }
    },
  ],
  ['legacy-signing-refused', 'legacy-signing', (s) => dropObjects(s, (o) => o.kind === 'Event' && o.type === 'Warning' && /tmkms|legacy/i.test(o.message))],
  [
    'leader-election',
    'leader-election',
    (s) => {
      const lease = editable(s).find((o) => o.kind === 'Lease' && o.metadata.name.startsWith('le.'))!
      const replica = editable(s).find((o) => o.kind === 'Pod' && o.metadata.name.startsWith('cosmopilot-le-'))!
      lease.spec.holderIdentity = `${replica.metadata.name}_0c1f`
      lease.spec.renewTime = s.collectedAt
    },
  ],
  [
    'webhook-certificates',
    'webhook-certificates',
    (s) => {
      for (const cfg of editable(s).filter((o) => o.kind === 'ValidatingWebhookConfiguration'))
        for (const hook of cfg.webhooks) hook.clientConfig.caBundle = 'LS0tLS1CRUdJTg=='
      dropLogLines(s, /tls\.crt|certificate|x509|serving-certs/i)
    },
  ],
  [
    'config-change-restart',
    'config-change-restart',
    (s) => {
      dropObjects(s, (o) => o.kind === 'Event' && o.reason === 'NodeRestarted')
      const cm = findObject(s, 'ConfigMap', 'cfg-1')
      cm.metadata.annotations!['cosmopilot.voluzi.com/config-hash'] = findObject(s, 'Pod', 'cfg-1').metadata.annotations!['cosmopilot.voluzi.com/config-hash']
      findObject(s, 'Pod', 'cfg-1').metadata.annotations!['cosmopilot.voluzi.com/chainnode-generation'] = String(
        findObject(s, 'ChainNode', 'cfg-1').metadata.generation,
      )
    },
  ],
  [
    'reconcile-failing',
    'reconcile-failing',
    (s) => {
      const fields = {
        ChainNode: { name: 'quota-0', namespace: 'sc-reconcile-failing' },
        namespace: 'sc-reconcile-failing',
        name: 'quota-0',
        reconcileID: 'recovered',
      }
      appendManagerLines(s, [
        { level: 'info', ts: Date.parse(s.collectedAt) / 1000, msg: 'starting reconcile', ...fields },
        { level: 'info', ts: Date.parse(s.collectedAt) / 1000, msg: 'finishing reconcile', ...fields },
      ])
    },
    // Held in InitializingData for 40 minutes by the same failure.
    ['phase-stuck'],
  ],
  [
    'phase-stuck',
    'phase-stuck',
    (s) => {
      // The node's own budget for its data init (initTimeout + 10m) outlasts the wait.
      findObject(s, 'ChainNode', 'init-0').spec.persistence.initTimeout = '3h'
    },
  ],
]

describe('rules on snapshots recorded from the test cluster', () => {
  const load = useBundles('healthy', 'healthy-legacy', 'healthy-no-leader-election', ...new Set(CASES.map((c) => c[1])))

  it.each(['healthy', 'healthy-legacy', 'healthy-no-leader-election'])('no rule fires on the %s bundle', (name) => {
    const report = runAllRules(load(name))
    expect(report.findings.map((f) => `${f.ruleId} ${f.subject.name}`)).toEqual([])
    expect(report.ruleErrors).toEqual([])
  })

  it.each(CASES)('%s fires on the %s bundle, with evidence', (rule, bundle, _nearMiss, also = []) => {
    const snapshot = load(bundle)
    expect(findings(snapshot).sort()).toEqual([rule, ...also].sort())
    const [finding] = runRule(snapshot, rule)
    expect(finding.evidence.length).toBeGreaterThan(0)
    expect(finding.summary).not.toMatch(/undefined/)
    expect(finding.cause).not.toMatch(/undefined/)
  })

  it.each(CASES)('%s does not fire on a near miss of the %s bundle', (rule, bundle, nearMiss) => {
    const snapshot = load(bundle)
    nearMiss(snapshot)
    expect(findings(snapshot, rule)).toEqual([])
  })

  it('a rule that throws is reported as a tool error and the others still run', () => {
    const broken = {
      ...ruleById('image-pull'),
      id: 'broken',
      check: () => {
        throw new Error('boom')
      },
    } as unknown as Rule
    const report = runRules(new SnapshotIndex(load('image-pull')), [broken, ruleById('image-pull')])
    expect(report.ruleErrors).toEqual([{ ruleId: 'broken', node: { kind: 'ChainNode', namespace: 'sc-image-pull', name: 'pull-0' }, message: 'boom' }])
    expect(report.findings.map((f) => f.ruleId)).toEqual(['image-pull'])
  })
})

const clone = useHealthy()

describe('a healthy bundle with benign operator lines stays clean', () => {
  it('Normal Events and a state-sync notice on a node that serves no snapshots give no finding', () => {
    const s = clone()
    for (const [reason, message] of [
      ['GenesisImported', 'Genesis downloaded using specified URL'],
      ['NodeRunning', 'Node is synced and running'],
      ['PvcResized', 'Data volume was resized to 150Gi'],
      ['ValidatorUnjailed', 'Validator was successfully unjailed'],
      ['TarballFinished', 'Finished exporting tarball x'],
    ])
      s.objects.push(operatorEvent(node(s), reason, message, before(s, 2), 'Normal'))
    s.objects.push(operatorEvent(node(s), 'NoTrustHeight', 'not adding state-sync details: no state-sync snapshots available', before(s, 1), 'Warning', 240))
    expect(runAllRules(s).findings).toEqual([])
  })
})
