import type { DoctorResult } from '../engine/doctor-result.js'
import type { FailOn } from '../engine/exit-code.js'
import { nodesOf, severityRank, type Finding } from '../engine/define-rule.js'
import { escapeMarkup } from './markup.js'
import { presentEvidence, shortTime } from './evidence.js'
import { timesIn } from './timeline-time.js'

const xml = escapeMarkup

/** A CI log is read anywhere: times in UTC to the second, log lines as level and message (as in the text report). */
const body = (f: Finding) =>
  [
    `Cause: ${timesIn(f.cause, true)}`,
    `Action: ${timesIn(f.action, true)}`,
    ...presentEvidence(f.evidence).map(
      (e) => `${e.at ? `${shortTime(e.at)} ` : ''}${e.source}: ${timesIn(e.text, true)}${e.count > 1 ? ` (x${e.count})` : ''}`,
    ),
  ].join('\n')

/** One suite per node, one test case per rule checked; findings at or above --fail-on are failures. */
export function renderDoctorJunit(result: DoctorResult, failOn: FailOn): string {
  const suites: string[] = []
  let tests = 0
  let failures = 0
  let errors = 0
  for (const cluster of result.clusters) {
    for (const { node, rulesChecked } of cluster.report.nodes) {
      const suiteName = `${result.clusters.length > 1 ? `${cluster.context}/` : ''}${node.namespace}/${node.name}`
      const cases: string[] = []
      let suiteFailures = 0
      let suiteErrors = 0
      for (const ruleId of rulesChecked) {
        const found = cluster.report.findings.filter(
          (f) => f.ruleId === ruleId && nodesOf(f).some((n) => n.namespace === node.namespace && n.name === node.name),
        )
        const ruleError = cluster.report.ruleErrors.find((e) => e.ruleId === ruleId && e.node.namespace === node.namespace && e.node.name === node.name)
        const failing = found.filter((f) => failOn !== 'never' && severityRank(f.severity) >= severityRank(failOn))
        const inner = [
          ...failing.map((f) => `<failure message="${xml(timesIn(f.summary, true))}" type="${f.severity}">${xml(body(f))}</failure>`),
          ...(ruleError ? [`<error message="${xml(ruleError.message)}" type="rule-error"/>`] : []),
          ...found.filter((f) => !failing.includes(f)).map((f) => `<system-out>${xml(`${f.severity}: ${timesIn(f.summary, true)}\n${body(f)}`)}</system-out>`),
        ]
        suiteFailures += failing.length ? 1 : 0
        suiteErrors += ruleError ? 1 : 0
        cases.push(
          `    <testcase classname="${xml(suiteName)}" name="${xml(ruleId)}">${inner.length ? `\n      ${inner.join('\n      ')}\n    ` : ''}</testcase>`,
        )
      }
      tests += cases.length
      failures += suiteFailures
      errors += suiteErrors
      suites.push(
        `  <testsuite name="${xml(suiteName)}" tests="${cases.length}" failures="${suiteFailures}" errors="${suiteErrors}" timestamp="${xml(cluster.collectedAt)}">\n${cases.join('\n')}\n  </testsuite>`,
      )
    }
    if (cluster.report.collectionErrors.length > 0) {
      const message = cluster.report.collectionErrors.map((e) => `${e.what} (${e.reason}): ${e.message}`).join('\n')
      suites.push(
        `  <testsuite name="${xml(cluster.context)}/collection" tests="1" failures="0" errors="1">\n    <testcase classname="${xml(cluster.context)}" name="collection"><error message="incomplete: ${cluster.report.collectionErrors.length} read(s) failed" type="incomplete">${xml(message)}</error></testcase>\n  </testsuite>`,
      )
      tests++
      errors++
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kubectl-chainnode doctor" tests="${tests}" failures="${failures}" errors="${errors}">\n${suites.join('\n')}\n</testsuites>\n`
}
