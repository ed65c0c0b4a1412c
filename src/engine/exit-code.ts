import { ExitCode } from '../util/errors.js'
import { severityRank, type Severity } from './define-rule.js'
import type { Report } from './run-rules.js'

export const FAIL_ON = ['error', 'warning', 'info', 'never'] as const satisfies readonly (Severity | 'never')[]
export type FailOn = (typeof FAIL_ON)[number]

/** 1 when a finding reaches --fail-on, else 3 when the run could not read everything it needed, else 0. */
export function exitCodeFor(report: Pick<Report, 'findings' | 'collectionErrors' | 'ruleErrors'>, failOn: FailOn): ExitCode {
  if (failOn !== 'never' && report.findings.some((f) => severityRank(f.severity) >= severityRank(failOn))) return ExitCode.Findings
  if (report.collectionErrors.length > 0 || report.ruleErrors.length > 0) return ExitCode.Incomplete
  return ExitCode.Clean
}
