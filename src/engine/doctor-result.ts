import type { Severity } from './define-rule.js'
import type { RuleId } from './rule-ids.js'
import type { Scope } from '../snapshot/types.js'
import type { Report } from './run-rules.js'
import type { Diagnosis, NodeState } from './diagnosis.js'

/** The outcome of doctor for one cluster (live, or replayed from a bundle). */
export interface ClusterReport {
  context: string
  server: string
  bundle?: string
  collectedAt: string
  scope: Scope
  requests: number
  durationMs: number
  /** Set when the logs of look-alike nodes were read for a sample of them (--log-sample). */
  logSample?: { perGroup: number; read: number; skipped: number }
  report: Report
  /** The findings linked into incidents, each node's state and the counts: computed once, read by every renderer. */
  diagnosis: Diagnosis
}

export interface DoctorResult {
  clusters: ClusterReport[]
  rulesChecked: RuleId[]
}

const STATES: NodeState[] = ['error', 'warning', 'info', 'not-measured', 'ok']

/** What every cluster's diagnosis says, added up: the one place the whole run is counted. */
export interface RunTotals {
  findings: Record<Severity, number>
  incidents: Record<Severity, number>
  chainNodes: Record<NodeState, number>
  chainNodeSets: Record<NodeState, number>
  worst: NodeState
  incomplete: boolean
}

export function runTotals(result: DoctorResult): RunTotals {
  const totals: RunTotals = {
    findings: { error: 0, warning: 0, info: 0 },
    incidents: { error: 0, warning: 0, info: 0 },
    chainNodes: { error: 0, warning: 0, info: 0, 'not-measured': 0, ok: 0 },
    chainNodeSets: { error: 0, warning: 0, info: 0, 'not-measured': 0, ok: 0 },
    worst: 'ok',
    incomplete: false,
  }
  for (const { diagnosis, report } of result.clusters) {
    for (const s of ['error', 'warning', 'info'] as const) {
      totals.findings[s] += diagnosis.findings[s]
      totals.incidents[s] += diagnosis.incidentCounts[s]
    }
    for (const s of STATES) {
      totals.chainNodes[s] += diagnosis.states.chainNodes[s]
      totals.chainNodeSets[s] += diagnosis.states.chainNodeSets[s]
    }
    if (STATES.indexOf(diagnosis.worst) < STATES.indexOf(totals.worst)) totals.worst = diagnosis.worst
    if (report.collectionErrors.length > 0 || report.ruleErrors.length > 0) totals.incomplete = true
  }
  return totals
}
