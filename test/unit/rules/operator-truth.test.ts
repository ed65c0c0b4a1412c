import { X509Certificate } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { parsePhaseTimeouts } from '../../../src/commands/doctor.js'
import { onsetOf } from '../../../src/engine/define-rule.js'
import { reconcileHistory } from '../../../src/analysis/reconcile-log.js'
import { renderStatusText } from '../../../src/render/status.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { reconcilerError, zapJson, type LogLine } from '../../cluster/scenarios/lib/logfmt.js'
import { QUOTA_ERROR } from '../../cluster/scenarios/sc-reconcile-failing.js'
import { statusRows } from '../../../src/analysis/status-model.js'
import { findingsOf, findObject, runAllRules, useBundles } from '../../helpers/bundles.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('reconcile-failing', 'phase-stuck', 'healthy-no-leader-election', 'pvc-not-growing', 'snapshot-verify', 'restore-not-starting')
const ids = (s: Snapshot) => [...new Set(runAllRules(s).findings.map((f) => f.ruleId))].sort()

/** Lines the operator logged after the bundle was recorded, stamped as the runtime would. */
function appendManagerLog(s: Snapshot, lines: LogLine[]): void {
  const log = s.logs.find((l) => l.container === 'manager')!
  log.text += lines.map((l) => `${l.at.toISOString()} ${l.text}\n`).join('')
}
/** Keep only the manager log lines that do not match. */
function dropManagerLines(s: Snapshot, pattern: RegExp, keepLast = 0): void {
  const log = s.logs.find((l) => l.container === 'manager')!
  const lines = log.text.split('\n')
  const matching = lines.filter((l) => pattern.test(l))
  const kept = new Set(keepLast ? matching.slice(-keepLast) : [])
  log.text = lines.filter((l) => !pattern.test(l) || kept.has(l)).join('\n')
}
const ago = (s: Snapshot, seconds: number) => new Date(Date.parse(s.collectedAt) - seconds * 1000)

describe('reconcile-failing', () => {
  it("reports the operator's error as the summary, with the quota named in the action", () => {
    const [finding] = findingsOf(load('reconcile-failing'), 'reconcile-failing')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toMatch(/^reconcile of ChainNode\/quota-0 fails \(x\d+ over \d+m\): failed to create init pod/)
    expect(finding.summary).toContain(QUOTA_ERROR)
    expect(finding.action).toMatch(/Raise ResourceQuota compute-resources in sc-reconcile-failing/)
    expect(finding.evidence.some((e) => e.kind === 'log' && e.text.startsWith(QUOTA_ERROR) && /\(x\d+ over \d+m\)/.test(e.text))).toBe(true)
  })

  it('is a warning for a single failure, and for failures that stopped coming', () => {
    const once = load('reconcile-failing')
    dropManagerLines(once, /Reconciler error.*quota-0/, 1)
    expect(findingsOf(once, 'reconcile-failing')[0].severity).toBe('warning')
    const recorded = load('reconcile-failing')
    expect(findingsOf(recorded, 'reconcile-failing', {}, Date.parse(recorded.collectedAt) + 30 * 60_000)[0].severity).toBe('warning')
  })

  it('dates the finding from the first failure of the run, not from the last repeat its evidence lines carry', () => {
    const [finding] = findingsOf(load('reconcile-failing'), 'reconcile-failing')
    const firstFailure = reconcileHistory(
      new SnapshotIndex(load('reconcile-failing')),
      findObject(load('reconcile-failing'), 'ChainNode', 'quota-0'),
    ).failingSince!
    expect(finding.since).toBe(firstFailure)
    expect(onsetOf(finding)).toBe(firstFailure)
    expect(finding.evidence.every((e) => !e.at || Date.parse(e.at) > Date.parse(firstFailure))).toBe(true)
  })

  it('shows an unknown error as is, with the operator log to read', () => {
    const s = load('reconcile-failing')
    const log = s.logs.find((l) => l.container === 'manager')!
    // An error the catalogue of the operator's vocabulary does not know (validator not found, which it does, has its own rule).
    log.text = log.text.split(JSON.stringify(QUOTA_ERROR).slice(1, -1)).join('widget frobnication failed')
    const [finding] = findingsOf(s, 'reconcile-failing')
    expect(finding.summary).toMatch(/: widget frobnication failed$/)
    expect(finding.action).toMatch(/^Read the operator log for this node: kubectl logs -n cosmopilot-system deploy\/cosmopilot -c manager \| grep quota-0$/)
  })

  it('ignores update conflicts, which the next reconcile resolves', () => {
    const s = load('reconcile-failing')
    const log = s.logs.find((l) => l.container === 'manager')!
    log.text = log.text
      .split(JSON.stringify(QUOTA_ERROR).slice(1, -1))
      .join(
        'Operation cannot be fulfilled on chainnodes.cosmopilot.voluzi.com \\"quota-0\\": the object has been modified; please apply your changes to the latest version and try again',
      )
    const index = new SnapshotIndex(s)
    expect(reconcileHistory(index, findObject(s, 'ChainNode', 'quota-0'))).toMatchObject({ latestFailed: true, onlyConflicts: true })
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
    expect(statusRows(index)[0].operatorError).toBeUndefined()
  })

  it('gives way to priority-class-missing, which now reads the log too', () => {
    const s = load('reconcile-failing')
    const log = s.logs.find((l) => l.container === 'manager')!
    log.text = log.text
      .split(JSON.stringify(QUOTA_ERROR).slice(1, -1))
      .join('failed to create init pod: pods \\"quota-0-init-data\\" is forbidden: no PriorityClass with name cosmopilot-default was found')
    const report = runAllRules(s)
    expect(report.findings.find((f) => f.ruleId === 'priority-class-missing')?.summary).toBe(
      "the node's Pods are refused: PriorityClass cosmopilot-default does not exist",
    )
    expect(report.suppressed).toContainEqual({ ruleId: 'reconcile-failing', node: expect.objectContaining({ name: 'quota-0' }), by: 'priority-class-missing' })
  })

  it('stays quiet once a reconcile goes through, and on a node whose old failure was followed by good reconciles', () => {
    const s = load('reconcile-failing')
    appendManagerLog(s, [
      zapJson(ago(s, -1), 'info', undefined, 'finishing reconcile', { ChainNode: { name: 'quota-0', namespace: 'sc-reconcile-failing' }, reconcileID: 'ok' }),
    ])
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
    const solo = load('healthy-no-leader-election')
    expect(solo.logs.find((l) => l.container === 'manager')!.text).toMatch(/"ts":"[^"]+Z","msg":"Reconciler error"/)
    expect(ids(solo)).toEqual([])
  })
})

describe('phase-stuck', () => {
  it('says how long, that nothing explains it, and what to read next', () => {
    const [finding] = findingsOf(load('phase-stuck'), 'phase-stuck')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toMatch(/^stuck in phase InitializingData for about 1[67]\dm \(more than 130m\)$/)
    expect(finding.data).toMatchObject({ phase: 'InitializingData', exact: false, explained: false })
    expect(finding.evidence.find((e) => e.kind === 'missing')?.text).toMatch(/no operator error and no Warning Event since/)
    expect(finding.action).toMatch(/kubectl logs -n sc-phase-stuck init-0-init-data --all-containers/)
  })

  it('uses the threshold given on the command line', () => {
    expect(findingsOf(load('phase-stuck'), 'phase-stuck', { phaseTimeoutsMs: { InitializingData: 4 * 3600_000 } })).toEqual([])
    expect(findingsOf(load('phase-stuck'), 'phase-stuck', { phaseTimeoutsMs: { Starting: 60_000 } })).toHaveLength(1)
  })

  it("takes the exact start from the operator's log and the reconcile errors of the span as evidence", () => {
    const [finding] = findingsOf(load('reconcile-failing'), 'phase-stuck')
    expect(finding.data).toMatchObject({ exact: true, explained: true, thresholdMs: 30 * 60_000 })
    expect(finding.summary).toMatch(/^stuck in phase InitializingData for 4\dm \(more than 30m\)$/)
    expect(finding.evidence.some((e) => e.kind === 'log' && e.text.startsWith(QUOTA_ERROR))).toBe(true)
    expect(finding.action).toMatch(/^Fix what the evidence names/)
  })

  it('reads the start off the node Pod for Starting, and leaves a serving phase alone', () => {
    const s = load('healthy-no-leader-election')
    const node = findObject(s, 'ChainNode', 'solo-0')
    node.status.phase = 'Starting'
    // The Pod started two days ago: far past 70 minutes.
    expect(findingsOf(s, 'phase-stuck')[0].summary).toMatch(/^stuck in phase Starting for about \d+[hd] \(more than 70m\)$/)
    node.status.phase = 'Syncing'
    expect(findingsOf(s, 'phase-stuck')).toEqual([])
  })

  it('a Pod being deleted for a restart dates the phase from the deletion, not from its creation', () => {
    const s = load('healthy-no-leader-election')
    findObject(s, 'ChainNode', 'solo-0').status.phase = 'Restarting'
    const pod = findObject(s, 'Pod', 'solo-0')
    pod.metadata.deletionGracePeriodSeconds = 30
    pod.metadata.deletionTimestamp = new Date(Date.parse(s.collectedAt) + 20_000).toISOString()
    expect(findingsOf(s, 'phase-stuck')).toEqual([])
    const late = load('healthy-no-leader-election')
    findObject(late, 'ChainNode', 'solo-0').status.phase = 'Restarting'
    Object.assign(findObject(late, 'Pod', 'solo-0').metadata, { deletionGracePeriodSeconds: 30, deletionTimestamp: ago(late, 20 * 60).toISOString() })
    expect(findingsOf(late, 'phase-stuck')[0].summary).toMatch(/^stuck in phase Restarting for about 20m \(more than 15m\)$/)
  })
})

describe('leader-election read from the release', () => {
  const manager = (s: Snapshot) => findObject(s, 'Deployment', 'cosmopilot-solo').spec.template.spec.containers[0]
  const leaseFinding = (s: Snapshot) => findingsOf(s, 'leader-election')[0]?.data

  it('a single manager without leader election and without a Lease is clean', () => {
    const s = load('healthy-no-leader-election')
    expect(manager(s).env.some((e: { name: string }) => e.name === 'ENABLE_LEADER_ELECTION')).toBe(false)
    expect(s.objects.some((o) => o.kind === 'Lease' && o.metadata.namespace === 'sc-healthy-no-leader-election')).toBe(false)
    expect(leaseFinding(s)).toBeUndefined()
  })

  it('with ENABLE_LEADER_ELECTION=true the missing Lease is a finding, named after worker and release', () => {
    const s = load('healthy-no-leader-election')
    manager(s).env.push({ name: 'ENABLE_LEADER_ELECTION', value: 'true' })
    expect(leaseFinding(s)).toMatchObject({ problem: 'no-lease', lease: 'solo.cosmopilot.cosmopilot.voluzi.com' })
    manager(s).env.push({ name: 'RELEASE_NAME', value: 'acme' })
    expect(leaseFinding(s)).toMatchObject({ lease: 'solo.acme.cosmopilot.voluzi.com' })
  })

  it('a leader that stopped renewing is dated by its last renewal, not by the old log lines of how it took the lease', () => {
    const s = load('healthy-no-leader-election')
    manager(s).env.push({ name: 'ENABLE_LEADER_ELECTION', value: 'true' })
    const operator = findObject(s, 'Deployment', 'cosmopilot-solo')
    const [pod] = new SnapshotIndex(s).operatorPods(operator)
    const renewed = ago(s, 600).toISOString()
    const { namespace } = operator.metadata
    s.objects.push({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'solo.cosmopilot.cosmopilot.voluzi.com', namespace },
      spec: { holderIdentity: `${pod.metadata.name}_1`, acquireTime: ago(s, 86_400).toISOString(), renewTime: renewed, leaseDurationSeconds: 15 },
    })
    appendManagerLog(s, [zapJson(ago(s, 86_400), 'info', undefined, 'successfully acquired lease solo.cosmopilot.cosmopilot.voluzi.com')])
    const [finding] = findingsOf(s, 'leader-election')
    expect(finding.data).toMatchObject({ problem: 'stale' })
    expect(finding.evidence.some((e) => e.kind === 'log' && Date.parse(e.at!) < Date.parse(renewed))).toBe(true)
    expect(onsetOf(finding)).toBe(renewed)
  })

  it('the command line wins over the environment, as Go flags default to it', () => {
    const s = load('healthy-no-leader-election')
    manager(s).args = ['--enable-leader-election', '-release-name', 'edge', '--worker-name=solo']
    expect(leaseFinding(s)).toMatchObject({ problem: 'no-lease', lease: 'solo.edge.cosmopilot.voluzi.com' })
    manager(s).env.push({ name: 'ENABLE_LEADER_ELECTION', value: 'true' })
    manager(s).args = ['--enable-leader-election=false']
    expect(leaseFinding(s)).toBeUndefined()
    // The operator's environment reader takes exactly "true".
    manager(s).args = []
    manager(s).env.at(-1).value = 'True'
    expect(leaseFinding(s)).toBeUndefined()
  })
})

describe('webhook-certificates', () => {
  it('names an expired webhook CA as the cause, dated when it expired', () => {
    const s = load('reconcile-failing')
    const webhook = findObject(s, 'ValidatingWebhookConfiguration', 'cosmopilot-validating-webhook-cfg')
    const validTo = new X509Certificate(Buffer.from(webhook.webhooks[0].clientConfig.caBundle, 'base64')).validTo
    expect(findingsOf(s, 'webhook-certificates')).toEqual([])
    const [finding] = findingsOf(s, 'webhook-certificates', {}, Date.parse(validTo) + 86_400_000)
    expect(finding.cause).toBe(`the CA injected into the webhook expired on ${validTo}: the certificate manager no longer renews it`)
    expect(onsetOf(finding)).toBe(new Date(Date.parse(validTo)).toISOString())
  })
})

describe('specific rules read the operator log as well as Events', () => {
  it('pvc-not-growing: a resize the API server refused, with no Event and no pending request', () => {
    const calm = (s: Snapshot) => {
      const pvc = findObject(s, 'PersistentVolumeClaim', 'grow-0')
      pvc.spec.resources.requests.storage = pvc.status.capacity.storage
      findObject(s, 'ChainNode', 'grow-0').status.dataUsage = '60%'
      return s
    }
    expect(findingsOf(calm(load('pvc-not-growing')), 'pvc-not-growing')).toEqual([])
    const s = calm(load('pvc-not-growing'))
    const refusal = `failed to resize PVC grow-0: persistentvolumeclaims "grow-0" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`
    appendManagerLog(s, [reconcilerError(ago(s, 30), 'ChainNode', 'sc-pvc-not-growing', 'grow-0', 'resize-1', refusal)])
    const [finding] = findingsOf(s, 'pvc-not-growing')
    expect(finding).toMatchObject({ severity: 'error', summary: 'the API server refuses to resize PVC grow-0 (60% full)' })
    expect(finding.evidence.at(-1)?.text).toBe(refusal)
  })

  it('restore-not-starting: the source is missing by the operator log when the snapshot list was forbidden', () => {
    const forbidden = (s: Snapshot) => {
      s.collectionErrors.push({ what: 'list volumesnapshots in sc-restore-not-starting', reason: 'forbidden', message: 'forbidden' })
      return s
    }
    expect(findingsOf(forbidden(load('restore-not-starting')), 'restore-not-starting')[0].data).toMatchObject({ sourceMissing: false })
    const s = forbidden(load('restore-not-starting'))
    appendManagerLog(s, [
      reconcilerError(
        ago(s, 20),
        'ChainNode',
        'sc-restore-not-starting',
        'restore-0',
        'r-1',
        'volumesnapshots.snapshot.storage.k8s.io "missing-snapshot" not found',
      ),
    ])
    const after = findingsOf(s, 'restore-not-starting')[0]
    expect(after.data).toMatchObject({ sourceMissing: true })
    expect(after.evidence.some((e) => e.kind === 'log' && /missing-snapshot" not found/.test(e.text))).toBe(true)
  })

  it('snapshot-verify-failing: corruption the operator only logged', () => {
    const unmarked = (s: Snapshot) => {
      for (const snap of s.objects.filter((o) => o.kind === 'VolumeSnapshot'))
        delete snap.metadata.annotations?.['cosmopilot.voluzi.com/snapshot-integrity-status']
      s.objects = s.objects.filter((o) => !(o.kind === 'Pod' && /-ichk/.test(o.metadata.name)) && !(o.kind === 'Event' && o.reason === 'SnapshotDeleted'))
      return s
    }
    expect(findingsOf(unmarked(load('snapshot-verify')), 'snapshot-verify-failing')).toEqual([])
    const s = unmarked(load('snapshot-verify'))
    const fields = { ChainNode: { name: 'snap-0', namespace: 'sc-snapshot-verify' }, namespace: 'sc-snapshot-verify', name: 'snap-0' }
    appendManagerLog(s, [
      zapJson(ago(s, 600), 'info', undefined, 'data integrity check finished. Data is corrupted.', { ...fields, reconcileID: 'c1', snapshot: 'snap-0-1' }),
      zapJson(ago(s, 599), 'info', undefined, 're-creating snapshot', { ...fields, reconcileID: 'c1' }),
    ])
    const [finding] = findingsOf(s, 'snapshot-verify-failing')
    expect(finding.summary).toMatch(/^snapshot integrity check failing \(1 corrupted/)
    expect(finding.evidence.some((e) => /Data is corrupted/.test(e.text))).toBe(true)
  })
})

describe("status shows the operator's latest error", () => {
  it('in the row data and on a line under the table', () => {
    const index = new SnapshotIndex(load('reconcile-failing'))
    const rows = statusRows(index)
    expect(rows[0].operatorError).toMatchObject({ error: QUOTA_ERROR })
    expect(rows[0].operatorError!.count).toBeGreaterThan(1)
    // Wrapped at the width of prose: its lines joined again.
    const text = renderStatusText(index, rows, { withNamespace: false }).replace(/\n {4}/g, ' ')
    expect(text).toMatch(
      new RegExp(
        `\\n\\nReconcile failing \\(the operator's latest error\\):\\n  quota-0: failed to create init pod: .* \\(x\\d+ over \\d+m\\), last \\S+ ago$`,
        // The line ends there; a note on an unknown CONFIG may follow.
        'm',
      ),
    )
  })

  it('says nothing for a node whose reconciles go through', () => {
    const index = new SnapshotIndex(load('healthy-no-leader-election'))
    const rows = statusRows(index)
    expect(rows[0].operatorError).toBeUndefined()
    expect(renderStatusText(index, rows, { withNamespace: false })).not.toMatch(/Reconcile failing/)
  })
})

describe('--phase-timeout', () => {
  it('reads PHASE=DURATION, repeated or comma-separated', () => {
    expect(parsePhaseTimeouts(['InitializingData=2h', 'Starting=90m,Upgrading=30s'])).toEqual({
      InitializingData: 7_200_000,
      Starting: 5_400_000,
      Upgrading: 30_000,
    })
  })
  it.each(['Running=1h', 'Starting', 'Starting=soon'])('refuses %s as a usage error', (value) => {
    expect(() => parsePhaseTimeouts([value])).toThrow(expect.objectContaining({ exitCode: 2 }))
  })
})
