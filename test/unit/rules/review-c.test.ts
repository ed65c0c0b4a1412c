import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runRules } from '../../../src/engine/run-rules.js'
import type { Rule } from '../../../src/engine/define-rule.js'
import { RULES } from '../../../src/rules/index.js'
import { readBundle } from '../../../src/snapshot/bundle.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { KubeObject, Snapshot } from '../../../src/snapshot/types.js'
import { ROOT } from '../../helpers/cli.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const bundles = new Map<string, Snapshot>()
const load = (name: string) => structuredClone(bundles.get(name)!)
const find = (s: Snapshot, kind: string, name: string): KubeObject => s.objects.find((o) => o.kind === kind && o.metadata.name === name)!
const hits = (s: Snapshot, rule: string) =>
  runRules(new SnapshotIndex(s), RULES.filter((r) => r.id === rule) as unknown as readonly Rule[]).findings.filter((f) => f.ruleId === rule)

beforeAll(async () => {
  for (const name of ['snapshot-verify', 'healthy', 'restore-not-starting', 'profiling-unavailable'])
    bundles.set(name, await readBundle(path.join(ROOT, 'examples', 'bundles', `${name}.tgz`)))
})

const INTEGRITY = 'cosmopilot.voluzi.com/snapshot-integrity-status'
const isCheckPod = (o: KubeObject) => o.kind === 'Pod' && /-ichk-/.test(o.metadata.name)

describe('snapshot-verify-failing', () => {
  it('stays quiet on a node whose checks pass while retention deletes old snapshots', () => {
    const s = load('snapshot-verify')
    for (const snap of s.objects.filter((o) => o.kind === 'VolumeSnapshot')) snap.metadata.annotations![INTEGRITY] = 'ok'
    s.objects = s.objects.filter((o) => !isCheckPod(o))
    expect(s.objects.some((o) => o.kind === 'Event' && o.reason === 'SnapshotDeleted')).toBe(true)
    expect(s.objects.filter((o) => o.kind === 'Event' && o.reason === 'IntegrityCheckStart').length).toBeGreaterThanOrEqual(3)
    expect(hits(s, 'snapshot-verify-failing')).toEqual([])
  })

  it('counts the failed check Pod of a ChainNodeSet node, whose snapshots are named <set>-<group>-<timestamp>', () => {
    const s = load('snapshot-verify')
    const node = find(s, 'ChainNode', 'snap-0')
    node.metadata.name = 'arch-snap-0'
    node.metadata.labels = { ...node.metadata.labels, nodeset: 'arch', group: 'snap' }
    const rename = (name: string) => name.replace(/^snap-0-(?=\d{14})/, 'arch-snap-')
    for (const o of s.objects) {
      if (o.kind === 'Event' && o.involvedObject?.kind === 'ChainNode') o.involvedObject.name = 'arch-snap-0'
      if (o.kind === 'Event' && typeof o.message === 'string') o.message = o.message.replace(/snap-0-(?=\d{14})/, 'arch-snap-')
      if (o.kind === 'VolumeSnapshot') {
        o.metadata.labels!['chain-node'] = 'arch-snap-0'
        o.metadata.annotations![INTEGRITY] = 'ok'
        o.metadata.name = rename(o.metadata.name)
      }
      if (isCheckPod(o)) {
        o.metadata.name = rename(o.metadata.name)
        o.metadata.labels!['volume-snapshot'] = rename(o.metadata.labels!['volume-snapshot'])
      }
      if (['Pod', 'PersistentVolumeClaim', 'ConfigMap', 'Service'].includes(o.kind) && o.metadata.name === 'snap-0') o.metadata.name = 'arch-snap-0'
    }
    const [finding] = hits(s, 'snapshot-verify-failing')
    expect(finding?.data).toMatchObject({ oomKilled: true })
    expect(finding.evidence.some((e) => e.source.includes('arch-snap-') && /OOMKilled|Error/.test(e.text))).toBe(true)
  })

  it("ignores the check Pod of another node's snapshot that merely starts with the node's name", () => {
    const s = load('snapshot-verify')
    for (const snap of s.objects.filter((o) => o.kind === 'VolumeSnapshot')) snap.metadata.annotations![INTEGRITY] = 'ok'
    const pod = s.objects.find(isCheckPod)!
    pod.metadata.name = pod.metadata.name.replace(/^snap-0-/, 'snap-0-archive-')
    pod.metadata.labels!['volume-snapshot'] = pod.metadata.labels!['volume-snapshot'].replace(/^snap-0-/, 'snap-0-archive-')
    expect(hits(s, 'snapshot-verify-failing')).toEqual([])
  })
})
