import { parseJsonPruned } from '../util/json-depth.js'
import type { LogLine } from './log-lines.js'

/** One line of a CometBFT-based chain's log, whatever format it was written in. */
export interface ChainLogEntry {
  level: string
  msg: string
  fields: Record<string, string>
  at?: string
  text: string
}

const ANSI = /\x1b\[[0-9;]*m/g // eslint-disable-line no-control-regex
const KEY_VALUE = /(?:^|\s)([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|\S*)/g
const LEVELS: Record<string, string> = {
  I: 'info',
  E: 'error',
  D: 'debug',
  W: 'warn',
  INF: 'info',
  ERR: 'error',
  DBG: 'debug',
  WRN: 'warn',
  FTL: 'fatal',
  PNC: 'panic',
}

/**
 * CometBFT's plain format (`I[2026-11-25|01:20:35.105] Timed out   module=consensus height=10`), its JSON
 * format (`{"_msg":"Timed out","level":"info","module":"consensus",...}`) and the zerolog console format
 * of Cosmos SDK chains (`12:39PM INF Timed out module=consensus height=10`, colours or not).
 */
export function parseChainLine(line: LogLine): ChainLogEntry | undefined {
  const text = line.text.replace(ANSI, '').trim()
  if (text.startsWith('{')) {
    try {
      const json = parseJsonPruned<Record<string, unknown>>(text)
      const msg = json._msg ?? json.message ?? json.msg
      if (typeof msg !== 'string') return undefined
      const fields = Object.fromEntries(Object.entries(json).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
      return { level: String(json.level ?? ''), msg, fields, at: line.at ?? (typeof json.ts === 'string' ? json.ts : undefined), text }
    } catch {
      return undefined
    }
  }
  const plain = /^([IEDW])\[[\d-]+\|[\d:.]+\]\s+(.*)$/.exec(text)
  const zerolog = plain ? undefined : /^\d{1,2}:\d\d(?::\d\d)?[AP]M\s+(INF|ERR|DBG|WRN|FTL|PNC)\s+(.*)$/.exec(text)
  const match = plain ?? zerolog
  if (!match) return undefined
  const rest = match[2]
  const firstKey = rest.search(/\s[A-Za-z_][\w.-]*=/)
  const msg = (firstKey < 0 ? rest : rest.slice(0, firstKey)).trim()
  const fields: Record<string, string> = {}
  for (const [, key, value] of (firstKey < 0 ? '' : rest.slice(firstKey)).matchAll(KEY_VALUE)) {
    fields[key] = value.startsWith('"') ? value.slice(1, -1).replace(/\\"/g, '"') : value
  }
  return { level: LEVELS[match[1]] ?? match[1], msg, fields, at: line.at, text }
}

/** The height a line names (NaN without one). */
export const heightOf = (e: ChainLogEntry): number => Number(e.fields.height ?? NaN)

/** A line saying the node committed (or executed) a block, with its height. */
export const isCommit = (e: ChainLogEntry): boolean =>
  /^(committed state|finalizing commit of block|executed block|finalized block)/i.test(e.msg) && !Number.isNaN(heightOf(e))

/** The highest height the commit lines name (-1 without one). */
export const committedHeightOf = (commits: ChainLogEntry[]): number => commits.reduce((most, e) => Math.max(most, heightOf(e)), -1)

/** Consensus timed out at `height` (no commit after it), from `since` (its first such line) to the last, `text`. */
export interface StuckConsensus {
  height: number
  since: string
  at: string
  text: string
}

/**
 * What a node's own log says of the height above `height`, the last one its RPC reported: consensus timed out there
 * (in a step past NewHeight, which every healthy height passes with a timeout) and nothing above `height` was
 * committed. `since` is the first such timeout after the last commit: from then on the node has logged no progress.
 * Undefined when the log commits above `height` (it moved since the reading), or shows no such timeout with a time.
 */
export function consensusStuckAbove(lines: LogLine[], height: number): StuckConsensus | undefined {
  let first: ChainLogEntry | undefined
  let last: ChainLogEntry | undefined
  for (const line of lines) {
    const entry = parseChainLine(line)
    if (!entry) continue
    if (isCommit(entry)) {
      if (heightOf(entry) > height) return undefined
      first = last = undefined
    } else if (entry.msg === 'Timed out' && entry.fields.step !== 'RoundStepNewHeight' && heightOf(entry) === height + 1 && entry.at) {
      first ??= entry
      last = entry
    }
  }
  return first && last ? { height: height + 1, since: first.at!, at: last.at!, text: last.text } : undefined
}
