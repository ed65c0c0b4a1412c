import { refOf } from '../snapshot/index.js'
import type { KubeObject } from '../snapshot/types.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { reconcileErrorEvidence, reconcileHistory } from '../analysis/reconcile-log.js'
import { compareText } from '../util/compare.js'
import { eventEvidence, field, missing } from '../engine/evidence.js'
import { matchingEvents } from '../snapshot/events.js'
import { operatorReleaseName } from '../snapshot/operator.js'

const NOT_FOUND = /no PriorityClass with name (\S+) was found/

/**
 * Why the class is missing. The cluster's PriorityClasses decide where they were read; else the operator
 * Deployment's Helm release against the RELEASE_NAME it runs with. `exists-now`: the refusal predates the class.
 */
type Why = 'release-mismatch' | 'classes-absent' | 'exists-now' | 'cannot-tell'

/** What each value of the chart's classes is (templates/priority-classes.yaml): the suffix decides. */
const CHART_VALUES: Record<string, number> = { default: 0, nodes: 950, validators: 1050 }
const CHART_CLASS = /^(.+)-(default|nodes|validators)$/

interface Data {
  priorityClass: string
  why: Why
  /** The release the chart's classes were made for: the Deployment's app.kubernetes.io/instance, or the classes found. */
  release?: string
  /** The name the manager gives its classes (RELEASE_NAME, default cosmopilot). */
  releaseName: string
  operator?: string
}

/**
 * Every API server creates system-cluster-critical and system-node-critical, so a read list is never empty:
 * none at all means they were not read (a bundle from before we read them, or the list was forbidden).
 */
function chartReleasesIn(classes: KubeObject[]): string[] {
  return [...new Set(classes.flatMap((pc) => CHART_CLASS.exec(pc.metadata.name)?.[1] ?? []))].filter((prefix) => prefix !== 'system')
}

function decide(classes: KubeObject[], priorityClass: string, releaseName: string, release: string | undefined): { why: Why; release?: string } {
  if (classes.length > 0) {
    if (classes.some((pc) => pc.metadata.name === priorityClass)) return { why: 'exists-now', release }
    const others = chartReleasesIn(classes).filter((prefix) => prefix !== releaseName)
    // The classes of another operator's release (a second release in the cluster) say nothing of this one's: with its
    // own release known, only that release's classes can show a mismatch.
    const mismatched = release ? others.filter((prefix) => prefix === release) : others
    if (mismatched.length === 0) return { why: 'classes-absent', release: release ?? releaseName }
    return { why: 'release-mismatch', release: mismatched[0] }
  }
  // The chart names its classes after the release; the manager after RELEASE_NAME: they differ only when the two do.
  if (!release) return { why: 'cannot-tell' }
  return { why: release !== releaseName ? 'release-mismatch' : 'classes-absent', release }
}

export default defineRule<Data>({
  id: 'priority-class-missing',
  title: 'Node Pod refused: PriorityClass not found',
  severity: 'error',
  specRow: 'Reference §7.4: pods reference <RELEASE_NAME>-nodes while the chart creates <release>-nodes',
  // The operator creates its Pods itself: a refused create is returned as a reconcile error and only
  // logged; an Event carries it only when something else (a controller, a policy engine) records one.
  logs: ['operator'],
  check({ index, node }) {
    const events = matchingEvents(index, node, (e) => NOT_FOUND.test(e.message ?? ''))
    const logged = reconcileErrorEvidence(index, node, NOT_FOUND)
    const latest = [...events.map((e) => ({ text: e.message as string, at: e.lastTimestamp ?? '' })), ...logged].sort((a, b) => (a.at < b.at ? -1 : 1)).at(-1)
    if (!latest) return []
    const classes = index.list('PriorityClass')
    const priorityClass = NOT_FOUND.exec(latest.text)![1]
    // The class exists now and the operator's later reconciles got past the refusal (they pass, or fail on
    // something else, which is then the node's story): the refusal is over.
    const failing = reconcileHistory(index, node).failing.at(-1)
    const pastIt = failing === undefined || (!NOT_FOUND.test(failing.error ?? '') && compareText(failing.at, latest.at) > 0)
    if (pastIt && logged.length > 0 && classes.some((pc) => pc.metadata.name === priorityClass)) return []
    const operator = index.operatorFor(node)
    const labelled: string | undefined = operator?.metadata.labels?.['app.kubernetes.io/instance']
    const releaseName = operator ? operatorReleaseName(operator) : 'cosmopilot'
    const { why, release } = decide(classes, priorityClass, releaseName, labelled)
    const evidence: Evidence[] = [
      ...logged,
      ...events.map(eventEvidence),
      ...(operator
        ? [field(operator, 'labels["app.kubernetes.io/instance"]', labelled), field(operator, 'RELEASE_NAME (manager)', releaseName)]
        : [missing('operator Deployment', 'no operator release found for this node: its Helm release cannot be read')]),
      classes.length > 0
        ? { kind: 'field', source: 'PriorityClasses', text: classes.map((pc) => pc.metadata.name).join(', ') }
        : missing('PriorityClasses', 'the cluster’s PriorityClasses were not read (kubectl get priorityclass)'),
    ]
    return [
      {
        subject: refOf(node),
        data: { priorityClass, why, release, releaseName, operator: operator && `${operator.metadata.namespace}/${operator.metadata.name}` },
        evidence,
        severity: why === 'exists-now' ? 'warning' : undefined,
      },
    ]
  },
  summary: (d) =>
    d.why === 'exists-now'
      ? `the node's Pods were refused: PriorityClass ${d.priorityClass} did not exist then`
      : `the node's Pods are refused: PriorityClass ${d.priorityClass} does not exist`,
  cause: (d) =>
    ({
      'release-mismatch': `the operator names its priority classes after RELEASE_NAME (${d.releaseName}) while the chart created them after the Helm release name (${d.release}-…)`,
      'classes-absent': `the operator's release is ${d.release} and it names its classes after it, so they match the chart's: the classes were never installed or were deleted`,
      'exists-now': `PriorityClass ${d.priorityClass} exists now: it was created after the operator's last refused attempt`,
      'cannot-tell': `cannot tell which: the operator names its classes after RELEASE_NAME (${d.releaseName}); either the chart created them under another release name, or they were never installed or were deleted`,
    })[d.why],
  action: (d) => {
    const suffix = CHART_CLASS.exec(d.priorityClass)?.[2]
    const create = `kubectl create priorityclass ${d.priorityClass} --value=${suffix ? CHART_VALUES[suffix] : 0}`
    const [namespace, deployment] = d.operator?.split('/') ?? ['cosmopilot-system', 'cosmopilot']
    const env = (release: string) => `kubectl set env deploy/${deployment} -n ${namespace} -c manager RELEASE_NAME=${release}`
    return {
      'release-mismatch': `Set RELEASE_NAME on the manager to the release name: ${env(d.release!)} (or reinstall the release as ${d.releaseName}).`,
      'classes-absent':
        d.release === d.releaseName
          ? `Recreate the chart's priority classes: helm upgrade ${d.release} with the same values (it creates ${d.releaseName}-default, -nodes and -validators), or ${create}.`
          : // The chart would create <release>-…, which the manager (RELEASE_NAME) does not look for.
            `Create the class the manager looks for: ${create}, and its siblings ${d.releaseName}-nodes and -validators.`,
      'exists-now': `Nothing to change: the operator retries on its next reconcile; if the Pod still does not appear, kubectl get pods -n ${namespace} -l app.kubernetes.io/name=cosmopilot and read the manager's log.`,
      'cannot-tell': `Check which classes exist (kubectl get priorityclass). If one ends in -nodes under another release name, ${env('<that release>')}; if none does, ${create} (or helm upgrade the release).`,
    }[d.why]
  },
})
