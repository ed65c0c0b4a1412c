import { ProfileFormatError } from './errors.js'
import { effectiveFunctionNames } from './symbols.js'
import type { Profile } from './types.js'

/*
 * Goroutines grouped by stack, from any of the three forms Go's
 * /debug/pprof/goroutine serves: the protobuf profile, ?debug=1 (one
 * "N @ addresses" block per distinct stack, frames as "#\taddr\tfn+off\tfile:line")
 * and ?debug=2 (every goroutine as a panic-style traceback with its state).
 * A group's key is its function names, leaf first, so the three forms of one
 * moment give the same groups (debug=2 adds the "created by" frame and states).
 */

export interface GoroutineGroup {
  count: number
  /** Function names, innermost first; debug=2 ends with "created by F". */
  frames: string[]
  /** Wait states and how many goroutines are in each (debug=2 only): "chan receive" -> 12. */
  states: Map<string, number>
}

export interface GoroutineDump {
  form: 'proto' | 'debug=1' | 'debug=2'
  total: number
  groups: GoroutineGroup[]
}

export function parseGoroutineText(text: string): GoroutineDump {
  const body = text.replace(/^\uFEFF/, '').trimStart()
  if (body.startsWith('goroutine profile:')) return parseDebug1(body)
  if (/^goroutine \d+/.test(body)) return parseDebug2(body)
  throw new ProfileFormatError('text', 'not a goroutine dump: expected "goroutine profile: total N" (?debug=1) or "goroutine N [state]:" (?debug=2)')
}

function parseDebug1(text: string): GoroutineDump {
  const groups = new Grouper()
  let count = -1
  let frames: string[] = []
  const flush = (): void => {
    if (count >= 0) groups.add(frames, count, undefined)
    count = -1
    frames = []
  }
  for (const line of text.split('\n')) {
    const head = /^(\d+) @( 0x[0-9a-f]+)*\s*$/.exec(line)
    if (head) {
      flush()
      count = Number(head[1])
      continue
    }
    // "#\t0x4387d6\tinternal/poll.runtime_pollWait+0x56\t/usr/.../netpoll.go:343"; "# labels: {...}" is not a frame.
    const frame = /^#\t0x[0-9a-f]+\t(.+?)\+0x[0-9a-f]+\t/.exec(line)
    if (frame && count >= 0) frames.push(frame[1]!)
  }
  flush()
  const declared = /^goroutine profile: total (\d+)/.exec(text)
  return { form: 'debug=1', total: declared ? Number(declared[1]) : groups.total, groups: groups.sorted() }
}

function parseDebug2(text: string): GoroutineDump {
  const groups = new Grouper()
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split('\n')
    // "goroutine 1 [chan receive, 5 minutes]:" or, with GOTRACEBACK=system, "goroutine 1 gp=0x... m=nil [select]:".
    const head = /^goroutine \d+(?: [^[]*)?\[([^\]]*)\]:\s*$/.exec(lines[0] ?? '')
    if (!head) continue
    const state = head[1]!.split(',')[0]!.trim()
    const frames: string[] = []
    for (const line of lines.slice(1)) {
      if (line.startsWith('\t') || line.startsWith(' ') || line.startsWith('...')) continue
      const created = /^created by (\S+)/.exec(line)
      if (created) {
        frames.push(`created by ${created[1]}`)
        continue
      }
      const call = /^(.+)\((?:[^()]*)\)$/.exec(line.trimEnd())
      if (call) frames.push(call[1]!)
    }
    groups.add(frames, 1, state)
  }
  return { form: 'debug=2', total: groups.total, groups: groups.sorted() }
}

/** Goroutines of a protobuf goroutine profile (sample type "goroutine", count), grouped the same way. */
export function goroutineGroups(profile: Profile): GoroutineDump {
  const names = effectiveFunctionNames(profile.functions)
  const groups = new Grouper()
  const { count, locationStart, locationIndex, values } = profile.samples
  const nt = profile.sampleTypes.length
  for (let s = 0; s < count; s++) {
    const frames: string[] = []
    for (let i = locationStart[s]!; i < locationStart[s + 1]!; i++) {
      for (const line of profile.locations[locationIndex[i]!]!.lines) frames.push(line.functionIndex >= 0 ? names[line.functionIndex]! : '?')
    }
    groups.add(frames, values[s * nt]!, undefined)
  }
  return { form: 'proto', total: groups.total, groups: groups.sorted() }
}

export interface GoroutineChange {
  before: number
  after: number
  frames: string[]
  states: Map<string, number>
}

/** Groups present in either dump with their counts before and after, most grown first. */
export function goroutineChanges(before: GoroutineDump, after: GoroutineDump): GoroutineChange[] {
  const key = (frames: string[]) => comparableFrames(frames).join('\n')
  const byKey = new Map<string, GoroutineChange>()
  // Shown as debug=1 prints a stack (the program's frames first), with debug=2's "created by" kept.
  const shown = (frames: string[]) => [...comparableFrames(frames), ...frames.filter((f) => f.startsWith('created by '))]
  const changeOf = (frames: string[]): GoroutineChange => {
    let change = byKey.get(key(frames))
    if (!change) byKey.set(key(frames), (change = { before: 0, after: 0, frames: shown(frames), states: new Map() }))
    return change
  }
  for (const g of before.groups) changeOf(g.frames).before += g.count
  for (const g of after.groups) {
    const change = changeOf(g.frames)
    change.after += g.count
    for (const [state, n] of g.states) change.states.set(state, (change.states.get(state) ?? 0) + n)
  }
  return [...byKey.values()].sort((a, b) => b.after - b.before - (a.after - a.before) || b.after - a.after)
}

/**
 * A stack as ?debug=1 prints it (runtime/pprof.printStackRecord): runtime frames above the first
 * frame of the program are hidden, and so is runtime.goexit; debug=2's "created by" is left out.
 */
function comparableFrames(frames: string[]): string[] {
  const isRuntime = (f: string) => f.startsWith('runtime.') || f.startsWith('internal/runtime/')
  const first = frames.findIndex((f) => !isRuntime(f) && !f.startsWith('created by '))
  const shown = first < 0 ? frames : frames.slice(first)
  return shown.filter((f) => f !== 'runtime.goexit' && !f.startsWith('created by '))
}

class Grouper {
  total = 0
  private byStack = new Map<string, GoroutineGroup>()

  add(frames: string[], count: number, state: string | undefined): void {
    this.total += count
    const key = frames.join('\n')
    let group = this.byStack.get(key)
    if (!group) {
      group = { count: 0, frames, states: new Map() }
      this.byStack.set(key, group)
    }
    group.count += count
    if (state !== undefined) group.states.set(state, (group.states.get(state) ?? 0) + count)
  }

  sorted(): GoroutineGroup[] {
    return [...this.byStack.values()].sort((a, b) => b.count - a.count)
  }
}
