import { operatorReleaseName, refOf } from '../snapshot/index.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { eventEvidence, field, matchingEvents, missing } from '../engine/rule-helpers.js'
import { reconcileErrorEvidence } from '../analysis/reconcile-log.js'

const NOT_FOUND = /no PriorityClass with name (\S+) was found/

/** Why the class is missing, read off the operator's Deployment: the Helm release it came from and the RELEASE_NAME it runs with. */
type Why = 'release-mismatch' | 'classes-absent' | 'cannot-tell'

/** What each value of the chart's classes is (templates/priority-classes.yaml): the suffix decides. */
const CHART_VALUES: Record<string, number> = { default: 0, nodes: 950, validators: 1050 }

interface Data {
  priorityClass: string
  why: Why
  /** The Helm release of the operator (app.kubernetes.io/instance), when labelled. */
  release?: string
  /** The name the manager gives its classes (RELEASE_NAME, default cosmopilot). */
  releaseName: string
  operator?: string
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
    const events = matchingEvents(index, node, (e) => NOT_FOUND.test(e.message))
    const logged = reconcileErrorEvidence(index, node, NOT_FOUND)
    const latest = [...events.map((e) => ({ text: e.message as string, at: e.lastTimestamp ?? '' })), ...logged].sort((a, b) => (a.at < b.at ? -1 : 1)).at(-1)
    if (!latest) return []
    const priorityClass = NOT_FOUND.exec(latest.text)![1]
    const operator = index.operatorFor(node)
    const release: string | undefined = operator?.metadata.labels?.['app.kubernetes.io/instance']
    const releaseName = operator ? operatorReleaseName(operator) : 'cosmopilot'
    // The chart names its classes after the release; the manager after RELEASE_NAME: they differ only when the two do.
    const why: Why = !operator || !release ? 'cannot-tell' : release !== releaseName ? 'release-mismatch' : 'classes-absent'
    const evidence: Evidence[] = [
      ...logged,
      ...events.map(eventEvidence),
      ...(operator
        ? [field(operator, 'labels["app.kubernetes.io/instance"]', release), field(operator, 'RELEASE_NAME (manager)', releaseName)]
        : [missing('operator Deployment', 'no operator release found for this node: its Helm release cannot be read')]),
    ]
    return [
      {
        subject: refOf(node),
        data: { priorityClass, why, release, releaseName, operator: operator && `${operator.metadata.namespace}/${operator.metadata.name}` },
        evidence,
      },
    ]
  },
  summary: (d) => `the node's Pods are refused: PriorityClass ${d.priorityClass} does not exist`,
  cause: (d) =>
    ({
      'release-mismatch': `the operator names its priority classes after RELEASE_NAME (${d.releaseName}) while the chart created them after the Helm release name (${d.release}-…)`,
      'classes-absent': `the operator's release is ${d.release} and it names its classes after it, so they match the chart's: the classes were never installed or were deleted`,
      'cannot-tell': `cannot tell which: the operator names its classes after RELEASE_NAME (${d.releaseName}); either the chart created them under another release name, or they were never installed or were deleted`,
    })[d.why],
  action: (d) => {
    const suffix = /-(default|nodes|validators)$/.exec(d.priorityClass)?.[1]
    const create = `kubectl create priorityclass ${d.priorityClass} --value=${suffix ? CHART_VALUES[suffix] : '<value>'}`
    const env = `kubectl set env deploy/${d.operator?.split('/')[1] ?? '<operator>'} -n ${d.operator?.split('/')[0] ?? '<namespace>'} -c manager RELEASE_NAME=${d.release ?? '<release>'}`
    return {
      'release-mismatch': `Set RELEASE_NAME on the manager to the release name: ${env} (or reinstall the release as ${d.releaseName}).`,
      'classes-absent': `Recreate the chart's priority classes: helm upgrade ${d.release} with the same values (it creates ${d.releaseName}-default, -nodes and -validators), or ${create}.`,
      'cannot-tell': `Check which classes exist (kubectl get priorityclass). If <release>-nodes exists, ${env}; if none does, ${create} (or helm upgrade the release).`,
    }[d.why]
  },
})
