import { refOf } from '../snapshot/index.js'
import { defineRule } from './define-rule.js'
import { eventEvidence, matchingEvents } from './helpers.js'

export default defineRule<{ priorityClass: string }>({
  id: 'priority-class-missing',
  title: 'Node Pod refused: PriorityClass not found',
  severity: 'error',
  specRow: 'Reference §7.4: pods reference <RELEASE_NAME>-nodes while the chart creates <release>-nodes',
  check({ index, node }) {
    const events = matchingEvents(index, node, (e) => /no PriorityClass with name (\S+) was found/.test(e.message))
    if (events.length === 0) return []
    const priorityClass = /no PriorityClass with name (\S+) was found/.exec(events.at(-1)!.message)![1]
    return [{ subject: refOf(node), data: { priorityClass }, evidence: events.map(eventEvidence) }]
  },
  summary: (d) => `the node Pod is refused: PriorityClass ${d.priorityClass} does not exist`,
  cause: () => 'the operator names priority classes after RELEASE_NAME (default cosmopilot) while the chart creates them after the Helm release name',
  action: () => 'Install the operator with the release name cosmopilot, or set RELEASE_NAME on the manager to the release name.',
})
