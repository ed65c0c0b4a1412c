import { LEVEL_WORDS } from '../snapshot/log-format.js'
import type { TimelineLevel } from './types.js'
import { parseJsonPruned } from '../util/json-depth.js'

export interface ParsedLine {
  level: TimelineLevel
  /** The message with the fields that say what went wrong (error, reason), without timestamps and caller. */
  text: string
}

/** Own words only: a line's `"level":"__proto__"` or `"constructor"` is no level, not Object.prototype. */
const levelOf = (word: unknown): TimelineLevel => {
  const key = String(word ?? '').toLowerCase()
  return Object.hasOwn(LEVEL_WORDS, key) ? LEVEL_WORDS[key] : 'normal'
}
const DETAIL_KEYS = ['error', 'err', 'reason']

/**
 * A line that cannot be an error or a warning in any shape parseLogLine reads has none of the level words
 * in it (a JSON or logfmt level, "panic", "fatal"), does not start with a CometBFT or klog level letter,
 * and holds no JSON escape that could spell one: such lines, most of a node's log, skip the parse.
 */
const PROBLEM_WORD = /err|fatal|panic|crit|warn|wrn|\\u/i
const PROBLEM_LETTER = /^\s*[EWF]/

/** The line parsed when it is an error or a warning line, else undefined (cheaply, for most lines). */
export function parseProblemLine(line: string): ParsedLine | undefined {
  if (!PROBLEM_WORD.test(line) && !PROBLEM_LETTER.test(line)) return undefined
  const parsed = parseLogLine(line)
  return parsed.level === 'error' || parsed.level === 'warning' ? parsed : undefined
}

/**
 * Level and message of one log line in the shapes the node's containers and the operator write:
 * JSON (zap, CometBFT's JSON logger), logfmt (node-utils), CometBFT's plain "E[...]"/"ERR" prefixes
 * and klog's "E1122 ..." header.
 */
export function parseLogLine(line: string): ParsedLine {
  const parsed = parseFields(line.trim())
  // CometBFT pads its message column with spaces: one is enough on a timeline.
  return { level: parsed.level, text: parsed.text.replace(/\s{2,}/g, ' ') }
}

function parseFields(trimmed: string): ParsedLine {
  if (trimmed.startsWith('{')) {
    try {
      const fields = parseJsonPruned<Record<string, unknown>>(trimmed)
      const message = String(fields.msg ?? fields._msg ?? fields.message ?? trimmed)
      const details = DETAIL_KEYS.filter((key) => fields[key] !== undefined && String(fields[key]) !== message).map((key) => `${key}=${String(fields[key])}`)
      return { level: levelOf(fields.level ?? fields.severity), text: [message, ...details].join(' ') }
    } catch {
      // Not JSON after all: read it as plain text below.
    }
  }
  const logfmt = /(?:^|\s)level=("?)(\w+)\1/.exec(trimmed)
  if (logfmt) {
    const msg = /(?:^|\s)msg=(?:"((?:[^"\\]|\\.)*)"|(\S+))/.exec(trimmed)
    const details = DETAIL_KEYS.flatMap((key) => {
      const match = new RegExp(`(?:^|\\s)${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|(\\S+))`).exec(trimmed)
      return match ? [`${key}=${match[1] ?? match[2]}`] : []
    })
    return { level: levelOf(logfmt[2]), text: msg ? [msg[1] ?? msg[2], ...details].join(' ') : trimmed }
  }
  const comet = /^(ERR|WRN|INF|DBG|E|W|I|D)(?:\[[^\]]*\]|\s)\s*(.*)$/.exec(trimmed)
  if (comet) return { level: levelOf({ E: 'error', W: 'warn' }[comet[1]] ?? comet[1]), text: comet[2] }
  const klog = /^([EWIF])\d{4} [\d:.]+\s+\d+ [^\]]+\] (.*)$/.exec(trimmed)
  if (klog) return { level: levelOf({ E: 'error', F: 'fatal', W: 'warn' }[klog[1]]), text: klog[2] }
  return { level: /\b(panic|fatal)\b/i.test(trimmed) ? 'error' : 'normal', text: trimmed }
}
