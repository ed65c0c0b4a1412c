import { ExitCode } from '../util/errors.js'
import { severityRank, type Severity } from './define-rule.js'
import type { DoctorResult } from './doctor-result.js'

export const FAIL_ON = ['error', 'warning', 'info', 'never'] as const satisfies readonly (Severity | 'never')[]
export type FailOn = (typeof FAIL_ON)[number]

/**
 * 1 when a finding reaches --fail-on; else 3 when the run could not read everything it needed (a read or a rule
 * failed, or a node with nothing else wrong could not be measured: that is not health); else 0.
 */
export function exitCodeFor(result: Pick<DoctorResult, 'clusters'>, failOn: FailOn): ExitCode {
  const findings = result.clusters.flatMap((c) => c.report.findings)
  if (failOn !== 'never' && findings.some((f) => severityRank(f.severity) >= severityRank(failOn))) return ExitCode.Findings
  const incomplete = result.clusters.some(
    ({ report, diagnosis }) => report.collectionErrors.length > 0 || report.ruleErrors.length > 0 || diagnosis.nodes.some((n) => n.state === 'not-measured'),
  )
  return incomplete ? ExitCode.Incomplete : ExitCode.Clean
}
