/**
 * One log line taken apart, whatever wrote it, for evidence: the snapshot holds the raw lines; rules use
 * this to tell routine lines from trouble, renderers to show time, level, message and the fields that matter.
 */
import { parseJsonPruned } from '../util/json-depth.js'

export const LEVEL_WORDS: Record<string, 'error' | 'warning'> = {
  error: 'error',
  err: 'error',
  fatal: 'error',
  panic: 'error',
  dpanic: 'error',
  crit: 'error',
  critical: 'error',
  warn: 'warning',
  warning: 'warning',
  wrn: 'warning',
}

/** A log line taken apart, whatever format wrote it: what a reader of evidence needs. */
export interface LogLineParts {
  /** error, warning, info or debug; undefined when the line names no level (plain output, a gate's echo). */
  level?: 'error' | 'warning' | 'info' | 'debug'
  /** When the line says it was written (RFC 3339), if it says so with a date. */
  time?: string
  message: string
  /** The fields that say what and where: error and reason first, then the line's own, without times, callers and stacks. */
  fields: [string, string][]
}

const LEVEL_OF_WORD: Record<string, LogLineParts['level']> = {
  ...LEVEL_WORDS,
  info: 'info',
  inf: 'info',
  notice: 'info',
  i: 'info',
  debug: 'debug',
  dbg: 'debug',
  trace: 'debug',
  d: 'debug',
  e: 'error',
  f: 'error',
  ftl: 'error',
  pnc: 'error',
  w: 'warning',
}
/** Own words only: `level=__proto__` or `"level":"constructor"` is no level, not Object.prototype. */
const levelWord = (word: unknown): LogLineParts['level'] => {
  const key = String(word ?? '').toLowerCase()
  return Object.hasOwn(LEVEL_OF_WORD, key) ? LEVEL_OF_WORD[key] : undefined
}

/** Keys that repeat what the evidence line already shows (time, level, message) or only matter to a developer. */
const NOISE_KEYS = new Set(['level', 'lvl', 'severity', 'ts', 'time', 'timestamp', 't', 'caller', 'logger', 'msg', '_msg', 'message', 'stacktrace', 'source'])
const FIRST_KEYS = ['error', 'err', 'reason']
/** Enough fields to tell two lines apart and to say where; the whole line is in the log (and the JSON output). */
const MAX_FIELDS = 4
// eslint-disable-next-line no-control-regex
const ANSI_CODES = /\x1b\[[0-9;]*m/g
const KEY_VALUES = /(?:^|\s)([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|\S*)/g

const unquote = (value: string) => (value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1).replace(/\\"/g, '"') : value)

/** A JSON field as one short value: an object naming a Kubernetes object reads namespace/name. */
function fieldValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const { name, namespace } = value as { name?: unknown; namespace?: unknown }
    if (typeof name === 'string') return typeof namespace === 'string' && namespace ? `${namespace}/${name}` : name
  }
  return JSON.stringify(value) ?? String(value)
}

function pickFields(entries: [string, string][]): [string, string][] {
  const kept = entries.filter(([key, value]) => !NOISE_KEYS.has(key) && value !== '')
  const first = FIRST_KEYS.flatMap((key) => kept.filter(([k]) => k === key))
  return [...first, ...kept.filter(([key]) => !FIRST_KEYS.includes(key))].slice(0, MAX_FIELDS)
}

function timeOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    // zap writes seconds since the epoch with a fraction; some loggers write milliseconds.
    const ms = value > 1e12 ? value : value * 1000
    return new Date(ms).toISOString()
  }
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(Date.parse(value))) return new Date(Date.parse(value)).toISOString()
  return undefined
}

function splitKeyValues(rest: string): { message: string; entries: [string, string][] } {
  const firstKey = rest.search(/(?:^|\s)[A-Za-z_][\w.-]*=/)
  const message = (firstKey < 0 ? rest : rest.slice(0, firstKey)).trim()
  const entries = [...(firstKey < 0 ? '' : rest.slice(firstKey)).matchAll(KEY_VALUES)].map(([, key, value]) => [key, unquote(value)] as [string, string])
  return { message, entries }
}

/**
 * Time, level, message and the fields that matter of one log line, in every format the node's containers
 * and the operator write: JSON (zap, CometBFT's JSON logger), logfmt (node-utils), klog, the zerolog
 * console format of Cosmos SDK chains and CometBFT's plain format. A line in none of them is its own message.
 */
export function describeLogLine(line: string): LogLineParts {
  const text = line.replace(ANSI_CODES, '').trim()
  if (text.startsWith('{')) {
    try {
      const json = parseJsonPruned<Record<string, unknown>>(text)
      if (json && typeof json === 'object' && !Array.isArray(json)) {
        const message = json.msg ?? json._msg ?? json.message
        return {
          level: levelWord(json.level ?? json.severity ?? json.lvl),
          time: timeOf(json.ts ?? json.time ?? json.timestamp),
          message: typeof message === 'string' ? message : text,
          fields: pickFields(Object.entries(json).map(([key, value]) => [key, fieldValue(value)])),
        }
      }
    } catch {
      // Not JSON after all: read as text below.
    }
  }
  const logfmt = /(?:^|\s)level=("?)(\w+)\1/.exec(text)
  if (logfmt) {
    const entries = [...text.matchAll(KEY_VALUES)].map(([, key, value]) => [key, unquote(value)] as [string, string])
    const get = (key: string) => entries.find(([k]) => k === key)?.[1]
    return { level: levelWord(logfmt[2]), time: timeOf(get('time') ?? get('ts')), message: get('msg') ?? get('message') ?? text, fields: pickFields(entries) }
  }
  const comet = /^([IEDW])\[(\d{4}-\d\d-\d\d)\|([\d:.]+)\]\s+(.*)$/.exec(text)
  if (comet) {
    const { message, entries } = splitKeyValues(comet[4])
    return { level: levelWord(comet[1]), time: timeOf(`${comet[2]}T${comet[3]}Z`), message, fields: pickFields(entries) }
  }
  const zerolog = /^(?:\S+\s+)?(INF|ERR|DBG|WRN|FTL|PNC|TRC)\s+(.*)$/.exec(text)
  if (zerolog && /^(\d{1,2}:\d\d(:\d\d)?[AP]M|\d{4}-\d\d-\d\dT\S+)\s/.test(text)) {
    const { message, entries } = splitKeyValues(zerolog[2])
    return { level: zerolog[1] === 'TRC' ? 'debug' : levelWord(zerolog[1]), message, fields: pickFields(entries) }
  }
  const klog = /^([EWIF])\d{4} [\d:.]+\s+\d+ [^\]]+\] (.*)$/.exec(text)
  if (klog) {
    const { message, entries } = splitKeyValues(klog[2])
    return { level: levelWord(klog[1]), message: unquote(message || klog[2]), fields: pickFields(entries) }
  }
  return { level: /\b(panic|fatal)\b/i.test(text) ? 'error' : undefined, message: text, fields: [] }
}

/** A log line as one evidence line: LEVEL, message, then key=value for the fields that matter. */
export function logLineSummary(line: string): string {
  const parts = describeLogLine(line)
  const fields = parts.fields.map(([key, value]) => `${key}=${/[\s"]/.test(value) || value === '' ? JSON.stringify(value) : value}`)
  return [parts.level?.toUpperCase(), parts.message.replace(/\s{2,}/g, ' '), ...fields].filter(Boolean).join(' ')
}

/** Info and debug lines say things went as planned: not evidence of trouble unless a rule asks for them. */
export const isRoutineLine = (line: string): boolean => {
  const level = describeLogLine(line).level
  return level === 'info' || level === 'debug'
}
