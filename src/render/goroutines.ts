import { visible } from './visible.js'
import type { GoroutineChange, GoroutineDump } from '../pprof/goroutines.js'

/** How many frames of a stack a summary shows before "…". */
const FRAMES_SHOWN = 6

/** A goroutine dump grouped by stack: count, wait states (debug=2) and the stack, largest group first. */
export function renderGoroutineGroups(dump: GoroutineDump, rows: number): string {
  const lines = [`${dump.total} goroutines in ${dump.groups.length} distinct stacks (${dump.form})`]
  for (const group of dump.groups.slice(0, rows)) {
    const states = [...group.states].map(([state, n]) => `${n} ${visible(state)}`).join(', ')
    lines.push('', `${String(group.count).padStart(7)}${states ? `  [${states}]` : ''}`, ...stack(group.frames))
  }
  if (dump.groups.length > rows) lines.push('', `(${dump.groups.length - rows} more stacks; --top N shows more)`)
  return `${lines.join('\n')}\n`
}

/** Goroutine counts of two captures: the total, and the stacks that gained goroutines (a leak when they keep gaining). */
export function renderGoroutineGrowth(before: GoroutineDump, after: GoroutineDump, changes: GoroutineChange[], interval: string, rows: number): string {
  const delta = after.total - before.total
  const grown = changes.filter((c) => c.after > c.before)
  const lines = [`goroutines: ${before.total} -> ${after.total} (${signed(delta)}) in ${interval}`]
  if (delta <= 0 || grown.length === 0) {
    lines.push('no goroutine growth: no stack gained goroutines between the two captures')
    return `${lines.join('\n')}\n`
  }
  lines.push(
    `goroutine leak suspected: ${grown.length} ${grown.length === 1 ? 'stack' : 'stacks'} gained goroutines; capture again later to see them keep growing`,
  )
  lines.push('', '  change   before    after  stack (innermost first)')
  for (const change of grown.slice(0, rows)) {
    const [first = '?', ...rest] = stack(change.frames).map((l) => l.trim())
    lines.push(`${signed(change.after - change.before).padStart(8)} ${String(change.before).padStart(8)} ${String(change.after).padStart(8)}  ${first}`)
    for (const frame of rest) lines.push(`${' '.repeat(28)}${frame}`)
  }
  return `${lines.join('\n')}\n`
}

function stack(frames: string[]): string[] {
  const shown = frames.slice(0, FRAMES_SHOWN).map((f) => `         ${visible(f)}`)
  if (frames.length > FRAMES_SHOWN) shown.push(`         … ${frames.length - FRAMES_SHOWN} more`)
  return shown
}

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n))
