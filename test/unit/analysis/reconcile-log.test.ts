import { describe, expect, it } from 'vitest'
import { parseReconcileLine, reconcileHistory, zapTime } from '../../../src/analysis/reconcile-log.js'
import { classifyReconcileError } from '../../../src/analysis/reconcile-causes.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { KubeObject, Snapshot } from '../../../src/snapshot/types.js'
import { reconcileFields, reconcilerError, retryTimes, zapJson, type LogLine } from '../../cluster/scenarios/lib/logfmt.js'
import type { Editable } from '../../helpers/bundles.js'

// The same builders the test-cluster scenarios write the operator's log with.
const NOW = new Date('2026-11-25T01:00:00Z')
const at = (secondsAgo: number) => new Date(NOW.getTime() - secondsAgo * 1000)
const ERROR =
  'failed to create init pod: pods "n-0-init-data" is forbidden: exceeded quota: compute, requested: requests.cpu=4, used: requests.cpu=6, limited: requests.cpu=8'

describe('parseReconcileLine', () => {
  it.each(['epoch', 'rfc3339'] as const)('reads a Reconciler error with ts as %s', (time) => {
    const line = reconcilerError(at(90), 'ChainNode', 'ns', 'n-0', 'id-1', ERROR, time)
    const parsed = parseReconcileLine(line.text, undefined, 'log of m/manager')
    // RFC 3339 keeps whole seconds; the float keeps the sub-second part zap wrote.
    expect(Date.parse(parsed!.at) - at(90).getTime()).toBeLessThan(1000)
    expect(parsed).toMatchObject({
      kind: 'ChainNode',
      namespace: 'ns',
      name: 'n-0',
      reconcileID: 'id-1',
      msg: 'Reconciler error',
      level: 'error',
      error: ERROR,
    })
  })

  it('reads a ChainNodeSet reconcile and the phase field', () => {
    const set = parseReconcileLine(reconcilerError(at(5), 'ChainNodeSet', 'ns', 'hub', 'id-2', 'boom').text, undefined, 's')
    expect(set).toMatchObject({ kind: 'ChainNodeSet', name: 'hub', error: 'boom' })
    const phase = parseReconcileLine(
      zapJson(at(5), 'info', undefined, 'updating .status.phase', { ...reconcileFields('ChainNode', 'ns', 'n-0', 'id-3'), phase: 'Starting' }).text,
      undefined,
      's',
    )
    expect(phase).toMatchObject({ msg: 'updating .status.phase', phase: 'Starting' })
  })

  it("reads the development console encoder's lines (DEBUG_MODE)", () => {
    const fields = JSON.stringify({ ...reconcileFields('ChainNode', 'ns', 'n-0', 'id-4'), error: ERROR })
    const parsed = parseReconcileLine(`2026-11-25T00:58:30.123Z\tERROR\tReconciler error\t${fields}`, undefined, 's')
    expect(parsed).toMatchObject({ at: '2026-11-25T00:58:30.123Z', msg: 'Reconciler error', level: 'error', error: ERROR })
  })

  it('ignores what is not a reconcile line', () => {
    expect(parseReconcileLine(zapJson(at(1), 'info', 'setup', 'starting manager').text, undefined, 's')).toBeUndefined()
    expect(parseReconcileLine('I1121 21:32:02.328000       1 leaderelection.go:257] attempting to acquire leader lease', undefined, 's')).toBeUndefined()
    expect(parseReconcileLine('{"msg":"x","reconcileID": broken', undefined, 's')).toBeUndefined()
    expect(parseReconcileLine(JSON.stringify({ msg: 'x', reconcileID: 'a', controllerKind: 'Pod', name: 'p', namespace: 'n' }), undefined, 's')).toBeUndefined()
  })

  it('falls back to the CRI time when ts is unreadable', () => {
    const text = JSON.stringify({ ...reconcileFields('ChainNode', 'ns', 'n-0', 'id'), msg: 'starting reconcile', ts: 'yesterday' })
    expect(parseReconcileLine(text, '2026-11-25T00:00:00.5Z', 's')?.at).toBe('2026-11-25T00:00:00.5Z')
    expect(zapTime(1764032400.25)).toBe('2025-11-25T01:00:00.250Z')
  })
})

function snapshotWith(lines: LogLine[], node: Partial<KubeObject['metadata']> = {}): { index: SnapshotIndex; node: Editable } {
  const labels = { 'app.kubernetes.io/name': 'cosmopilot', 'app.kubernetes.io/instance': 'cosmopilot' }
  const chainNode: Editable = { apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', metadata: { name: 'n-0', namespace: 'ns', ...node } }
  const snapshot: Snapshot = {
    formatVersion: 1,
    collectedAt: NOW.toISOString(),
    cliVersion: 'test',
    source: { context: 't', server: 's' },
    scope: { kind: 'namespace', namespace: 'ns' },
    objects: [
      chainNode,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'cosmopilot', namespace: 'op' },
        spec: { selector: { matchLabels: labels }, template: { spec: { containers: [{ name: 'manager' }] } } },
      },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cosmopilot-x', namespace: 'op', labels } },
      { apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNodeSet', metadata: { name: 'hub', namespace: 'ns' } },
    ],
    chainNodeRows: [],
    logs: [
      {
        namespace: 'op',
        pod: 'cosmopilot-x',
        container: 'manager',
        previous: false,
        truncated: false,
        text: lines.map((l) => `${l.at.toISOString()} ${l.text}`).join('\n'),
      },
    ],
    probes: [],
    collectionErrors: [],
    stats: { requests: 0, durationMs: 0 },
    redactions: 0,
  }
  return { index: new SnapshotIndex(snapshot), node: chainNode }
}

const reconcile = (secondsAgo: number, id: string, outcome: 'error' | 'finish' | 'running', error = ERROR): LogLine[] => [
  zapJson(at(secondsAgo), 'info', undefined, 'starting reconcile', reconcileFields('ChainNode', 'ns', 'n-0', id)),
  ...(outcome === 'error' ? [reconcilerError(at(secondsAgo - 0.1), 'ChainNode', 'ns', 'n-0', id, error)] : []),
  ...(outcome === 'finish' ? [zapJson(at(secondsAgo - 0.1), 'info', undefined, 'finishing reconcile', reconcileFields('ChainNode', 'ns', 'n-0', id))] : []),
]

describe('reconcileHistory', () => {
  it('groups failures by error text with count, first and last time', () => {
    const lines = retryTimes(600).flatMap((sec, i) => reconcile(sec, `r${i}`, 'error', i % 2 ? ERROR : 'other error'))
    const { index, node } = snapshotWith(lines)
    const history = reconcileHistory(index, node)
    expect(history.latestFailed).toBe(true)
    expect(history.failingCount).toBe(lines.filter((l) => l.text.includes('Reconciler error')).length)
    const counts = Object.fromEntries(history.groups.map((g) => [g.error, g.count]))
    expect(counts).toEqual({ 'other error': Math.ceil(history.failingCount / 2), [ERROR]: Math.floor(history.failingCount / 2) })
    // Newest last, as Events are listed.
    expect(history.groups.at(-1)!.last).toBe(history.failures.at(-1)!.at)
    expect(Date.parse(history.groups[0].first)).toBeLessThan(Date.parse(history.groups[0].last))
    expect(history.failingSince).toBe(history.failures[0].at)
  })

  it('a later reconcile that went through ends the failing run', () => {
    const recovered = snapshotWith([...reconcile(300, 'a', 'error'), ...reconcile(200, 'b', 'finish')])
    expect(reconcileHistory(recovered.index, recovered.node)).toMatchObject({ latestFailed: false, failingCount: 0 })
    // Another reconcile started after it without an error: it went through (early returns log no end).
    const startedAfter = snapshotWith([...reconcile(300, 'a', 'error'), ...reconcile(200, 'b', 'running'), ...reconcile(100, 'c', 'running')])
    expect(reconcileHistory(startedAfter.index, startedAfter.node).latestFailed).toBe(false)
  })

  it('tells a run of optimistic-lock conflicts from a real failure', () => {
    const conflict =
      'Operation cannot be fulfilled on chainnodes.cosmopilot.voluzi.com "n-0": the object has been modified; please apply your changes to the latest version and try again'
    const conflicts = snapshotWith([...reconcile(300, 'a', 'error', conflict), ...reconcile(200, 'b', 'error', conflict)])
    expect(reconcileHistory(conflicts.index, conflicts.node)).toMatchObject({ latestFailed: true, onlyConflicts: true })
    const mixed = snapshotWith([...reconcile(300, 'a', 'error', conflict), ...reconcile(200, 'b', 'error')])
    expect(reconcileHistory(mixed.index, mixed.node)).toMatchObject({ latestFailed: true, onlyConflicts: false })
  })

  it('a reconcile still running does not clear the failures before it', () => {
    const { index, node } = snapshotWith([...reconcile(300, 'a', 'error'), ...reconcile(200, 'b', 'error'), ...reconcile(5, 'c', 'running')])
    expect(reconcileHistory(index, node)).toMatchObject({ latestFailed: true, failingCount: 2 })
  })

  it("counts the failures of the node's ChainNodeSet, not those of other nodes", () => {
    const lines = [
      reconcilerError(at(100), 'ChainNodeSet', 'ns', 'hub', 's1', 'set failure'),
      reconcilerError(at(90), 'ChainNode', 'ns', 'n-1', 'o1', 'not mine'),
      reconcilerError(at(80), 'ChainNode', 'other', 'n-0', 'o2', 'same name, other namespace'),
    ]
    const child = snapshotWith(lines, {
      labels: { nodeset: 'hub' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'ChainNodeSet', name: 'hub', uid: 'u', controller: true }],
    })
    expect(reconcileHistory(child.index, child.node).groups.map((g) => `${g.kind}/${g.name}: ${g.error}`)).toEqual(['ChainNodeSet/hub: set failure'])
    const standalone = snapshotWith(lines)
    expect(reconcileHistory(standalone.index, standalone.node).failures).toEqual([])
  })
})

describe('reconcileHistory with lines about other namespaces', () => {
  // Lines of namespaces without a node in the snapshot are skipped before parsing; that must not lose a line of ns.
  it('reads the same history as a log of the node alone', () => {
    const consoleLine = (secondsAgo: number): LogLine => ({
      at: at(secondsAgo),
      text: `${at(secondsAgo).toISOString()}\tERROR\tReconciler error\t${JSON.stringify({ ...reconcileFields('ChainNode', 'ns', 'n-0', 'c'), error: 'console' })}`,
    })
    const mine = [...reconcile(300, 'a', 'error'), ...reconcile(200, 'b', 'error'), consoleLine(150)]
    // ns-2 contains "ns": a prefix must not make its lines count for ns.
    const others = ['ns-2', 'other', 'prod'].map((namespace, i) =>
      reconcilerError(at(250 - i), 'ChainNode', namespace, 'n-0', `o${i}`, `failure in ${namespace}`),
    )
    const alone = snapshotWith(mine)
    const mixed = snapshotWith([...others, ...mine].sort((a, b) => a.at.getTime() - b.at.getTime()))
    const history = reconcileHistory(mixed.index, mixed.node)
    expect(history).toEqual(reconcileHistory(alone.index, alone.node))
    expect(history.groups.map((g) => g.error)).toEqual([ERROR, 'console'])
    expect(history.failingCount).toBe(3)
  })

  it('reads a log shared with a snapshot of other namespaces afresh (a narrowed snapshot keeps the log records)', () => {
    // Namespaces no other part of a zap line spells (its stack trace holds "ns").
    const lines = [reconcilerError(at(100), 'ChainNode', 'zq-one', 'n-0', 'a', 'in one'), reconcilerError(at(90), 'ChainNode', 'zq-two', 'n-0', 'b', 'in two')]
    const first = snapshotWith(lines, { namespace: 'zq-one' })
    expect(reconcileHistory(first.index, first.node).groups.map((g) => g.error)).toEqual(['in one'])
    const node = { ...first.node, metadata: { ...first.node.metadata, namespace: 'zq-two' } }
    const snapshot = first.index.snapshot
    const moved = new SnapshotIndex({ ...snapshot, objects: [node, ...snapshot.objects.filter((o) => o.kind !== 'ChainNode')] })
    expect(reconcileHistory(moved, node).groups.map((g) => g.error)).toEqual(['in two'])
  })
})

describe('classifyReconcileError', () => {
  it.each([
    ['pods "n-0" is forbidden: no PriorityClass with name cosmopilot-nodes was found', 'priority-class', 'cosmopilot-nodes'],
    [ERROR, 'quota', 'compute'],
    ['pods "n-0" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true', 'pod-security', 'restricted:latest'],
    ['admission webhook "validate.kyverno.svc-fail" denied the request: policy require-labels', 'admission-denied', 'validate.kyverno.svc-fail'],
    [
      'pods is forbidden: User "system:serviceaccount:cosmopilot-system:cosmopilot" cannot create resource "pods"',
      'rbac',
      'system:serviceaccount:cosmopilot-system:cosmopilot',
    ],
    ['failed to get account secret: secrets "val-account" not found', 'secret-missing', 'val-account'],
    ['failed to load genesis from ConfigMap my-genesis: configmaps "my-genesis" not found', 'configmap-missing', 'my-genesis'],
    ['volumesnapshots.snapshot.storage.k8s.io "snap-1" not found', 'snapshot-missing', 'snap-1'],
    ['failed to download genesis to PVC: pod n-0-download-genesis failed', 'genesis', undefined],
    ['failed to retrieve genesis from URL https://x/genesis.json: 404 Not Found', 'genesis', undefined],
    ['no matches for kind "VolumeSnapshot" in version "snapshot.storage.k8s.io/v1"', 'crd-missing', 'VolumeSnapshot'],
    ['ChainNode.cosmopilot.voluzi.com "n-0" is invalid: spec.app.image: Required value', 'invalid-spec', undefined],
    ['Post "https://cosmopilot-webhook.cosmopilot-system.svc:443/validate": x509: certificate signed by unknown authority', 'webhook', undefined],
    ['timeout waiting for container gaiad to start in pod n-0: context deadline exceeded', 'start-timeout', 'gaiad'],
    ['validator not found', 'unknown', undefined],
  ])('%s -> %s', (error, cause, object) => {
    const { cause: got, object: named } = classifyReconcileError(error)
    expect({ cause: got, object: named }).toEqual({ cause, object })
  })
})
