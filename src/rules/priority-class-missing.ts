import { refOf } from '../snapshot/index.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { eventEvidence, matchingEvents } from '../engine/rule-helpers.js'
import { reconcileErrorEvidence } from '../analysis/reconcile-log.js'

const NOT_FOUND = /no PriorityClass with name (\S+) was found/

export default defineRule<{ priorityClass: string }>({
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
    const evidence: Evidence[] = [...logged, ...events.map(eventEvidence)]
    return [{ subject: refOf(node), data: { priorityClass }, evidence }]
  },
  summary: (d) => `the node's Pods are refused: PriorityClass ${d.priorityClass} does not exist`,
  cause: () => 'the operator names priority classes after RELEASE_NAME (default cosmopilot) while the chart creates them after the Helm release name',
  action: () => 'Install the operator with the release name cosmopilot, or set RELEASE_NAME on the manager to the release name.',
})
