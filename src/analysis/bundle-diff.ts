import { diffConfigs } from './config-diff.js'
import type { DoctorResult } from '../engine/doctor-result.js'
import type { Incident } from '../engine/diagnosis.js'
import type { Severity } from '../engine/define-rule.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { allContainerStatuses } from '../snapshot/node-layout.js'
import type { ObjectRef, Snapshot } from '../snapshot/types.js'
import { compareText } from '../util/compare.js'

/** One incident in a comparison, by what a reader needs to recognise it. */
export interface ComparedIncident {
  id: string
  ruleId: string
  severity: Severity
  summary: string
  nodes: ObjectRef[]
}

/** A change to one node between the two collection times. */
export interface NodeChange {
  node: ObjectRef
  phase?: { before?: string; after?: string }
  /** The Pod was replaced (its uid changed) or its containers restarted (restartCount grew), with how many. */
  restarts?: { podReplaced: boolean; containerRestarts: number }
  /** Keys of the rendered configuration ("file:path") that changed, were added or removed. */
  configKeys?: string[]
}

export interface BundleComparison {
  before: { source: string; collectedAt: string }
  after: { source: string; collectedAt: string }
  incidents: { appeared: ComparedIncident[]; resolved: ComparedIncident[]; persisted: ComparedIncident[] }
  nodes: { added: ObjectRef[]; removed: ObjectRef[]; changed: NodeChange[] }
}

const key = (ref: ObjectRef) => `${ref.namespace ?? ''}/${ref.name}`

/**
 * Which incidents of one run are those of another: by the incident's id (its cause's rule and look-alike key), so
 * the same trouble on the same nodes is the same incident in both (engine/diagnosis.ts). The one place a comparison
 * decides what "the same trouble" is.
 */
export function incidentsOf(result: DoctorResult): Map<string, ComparedIncident> {
  const out = new Map<string, ComparedIncident>()
  for (const cluster of result.clusters) for (const incident of cluster.diagnosis.incidents) out.set(incident.id, compared(incident))
  return out
}

const compared = (incident: Incident): ComparedIncident => ({
  id: incident.id,
  ruleId: incident.cause.ruleId,
  severity: incident.severity,
  summary: incident.cause.example.summary,
  nodes: incident.nodes,
})

/** What changed between two snapshots of the same nodes, and the incidents their diagnoses appeared, resolved or kept. */
export function compareBundles(
  before: { snapshot: Snapshot; source: string; result: DoctorResult },
  after: { snapshot: Snapshot; source: string; result: DoctorResult },
): BundleComparison {
  const [was, is] = [incidentsOf(before.result), incidentsOf(after.result)]
  const byId = (list: ComparedIncident[]) => list.sort((a, b) => compareText(a.id, b.id))
  const [old, now] = [new SnapshotIndex(before.snapshot), new SnapshotIndex(after.snapshot)]
  const oldNodes = new Map(old.chainNodes().map((n) => [key(refOf(n)), n]))
  const newNodes = new Map(now.chainNodes().map((n) => [key(refOf(n)), n]))
  const changed: NodeChange[] = []
  for (const [k, node] of newNodes) {
    const earlier = oldNodes.get(k)
    if (!earlier) continue
    const change: NodeChange = { node: refOf(node) }
    if ((earlier.status?.phase ?? '') !== (node.status?.phase ?? '')) change.phase = { before: earlier.status?.phase, after: node.status?.phase }
    const [podBefore, podAfter] = [old.podOf(earlier), now.podOf(node)]
    const restartsOf = (pod: typeof podAfter) => new Map(allContainerStatuses(pod).map((s) => [s.name, s.restartCount ?? 0]))
    const replaced = Boolean(podBefore && podAfter && podBefore.metadata.uid !== podAfter.metadata.uid)
    const [r0, r1] = [restartsOf(podBefore), restartsOf(podAfter)]
    // A replaced Pod's counts start again at 0: each of its restarts is new.
    const containerRestarts = [...r1].reduce((sum, [name, n]) => sum + Math.max(0, n - (replaced ? 0 : (r0.get(name) ?? 0))), 0)
    if (replaced || containerRestarts > 0) change.restarts = { podReplaced: replaced, containerRestarts }
    const keys = diffConfigs(old.configMapOf(earlier)?.data ?? {}, now.configMapOf(node)?.data ?? {}).map((c) => `${c.file}:${c.path}`)
    if (keys.length > 0) change.configKeys = keys
    if (change.phase || change.restarts || change.configKeys) changed.push(change)
  }
  return {
    before: { source: before.source, collectedAt: before.snapshot.collectedAt },
    after: { source: after.source, collectedAt: after.snapshot.collectedAt },
    incidents: {
      appeared: byId([...is.values()].filter((i) => !was.has(i.id))),
      resolved: byId([...was.values()].filter((i) => !is.has(i.id))),
      persisted: byId([...is.values()].filter((i) => was.has(i.id))),
    },
    nodes: {
      added: [...newNodes.keys()].filter((k) => !oldNodes.has(k)).map((k) => refOf(newNodes.get(k)!)),
      removed: [...oldNodes.keys()].filter((k) => !newNodes.has(k)).map((k) => refOf(oldNodes.get(k)!)),
      changed,
    },
  }
}

const refOf = (node: { kind: string; metadata: { namespace?: string; name: string } }): ObjectRef => ({
  kind: node.kind,
  namespace: node.metadata.namespace,
  name: node.metadata.name,
})
