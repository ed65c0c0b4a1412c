import type { SnapshotIndex } from '../snapshot/index.js'
import type { Evidence } from '../engine/define-rule.js'
import { compareText } from '../util/compare.js'
import { grepLogs } from './grep-logs.js'
import type { ChainNode, Workload } from '../snapshot/kinds.js'

/** Error and warning lines only, unless the caller reads routine lines on purpose (see grepLogs). */
type LogLevels = { anyLevel?: boolean }

/** Manager log lines of the operator release that reconciles this node, about this node, matching a pattern. */
export function operatorLogsAbout(index: SnapshotIndex, node: ChainNode, pattern: RegExp, limit = 5, perReplica = 50, levels: LogLevels = {}): Evidence[] {
  const operator = index.operatorFor(node)
  if (!operator) return []
  const { name, namespace } = node.metadata
  return index
    .operatorPods(operator)
    .flatMap((pod) => grepLogs(index, pod, 'manager', pattern, perReplica, levels))
    .filter((line) => mentionsName(line.text, name) && (!namespace || !/"namespace"/.test(line.text) || line.text.includes(namespace)))
    .sort((a, b) => compareText(a.at ?? '', b.at ?? ''))
    .slice(-limit)
}

/**
 * Every manager log line about this node (the timeline's operator entries). Grepping by the name rather
 * than by "any line" turns only this node's lines into evidence, not the whole tail of the log.
 */
export function allOperatorLogsAbout(index: SnapshotIndex, node: ChainNode, limit: number): Evidence[] {
  return operatorLogsAbout(index, node, ANY_LINE, limit, Infinity, { anyLevel: true })
}

const ANY_LINE = /(?:)/

/**
 * Whether the text names the node as a word of its own: fullnode-0 is not a mention of fullnode-01. Searched, not
 * compiled into a pattern: a name is a stranger's text, and one of a megabyte is no valid regular expression.
 */
export function mentionsName(text: string, name: string): boolean {
  if (name === '') return false
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1))
    if (!isNameChar(text[at - 1]) && !isNameChar(text[at + name.length])) return true
  return false
}

const isNameChar = (c: string | undefined) => c !== undefined && /[\w-]/.test(c)

/** Manager log lines of every replica of an operator release matching a pattern. */
export function operatorLogs(index: SnapshotIndex, operator: Workload, pattern: RegExp, limit = 5, levels: LogLevels = {}): Evidence[] {
  return index
    .operatorPods(operator)
    .flatMap((pod) => grepLogs(index, pod, 'manager', pattern, limit, levels))
    .sort((a, b) => compareText(a.at ?? '', b.at ?? ''))
    .slice(-limit)
}
