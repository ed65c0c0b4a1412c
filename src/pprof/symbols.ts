import type { Profile, ProfileFunction } from './types.js'
import { compileGoRegexp, type GoRegexp } from '../util/go-regexp.js'

/*
 * What `go tool pprof` does to names before building its graph, for a
 * profile read from a file: symbolizer.Demangle's fallback heuristics and
 * profile.RemoveUninteresting (drop_frames/keep_frames). Real C++/Rust
 * demangling of mangled system names (_Z..., _R...) is not reproduced;
 * Go profiles never need it.
 */

/** Function names as pprof shows them (symbolizer.demangleSingleFunction). */
export function effectiveFunctionNames(functions: readonly ProfileFunction[]): string[] {
  return functions.map((f) => {
    if (f.name !== '' && f.systemName !== f.name) return f.name // already demangled
    let name = f.systemName
    if (looksLikeDemangledCPlusPlus(name)) name = removeMatching(removeMatching(name, '(', ')'), '<', '>')
    return name
  })
}

function looksLikeDemangledCPlusPlus(name: string): boolean {
  if (name.includes('.<')) return false // Java "class.<init>"
  if (name.includes(']).')) return false // Go "pkg.(*T[...]).Method"
  return /[<>[\]]/.test(name) || name.includes('::')
}

/** Removes nested start..end groups; leaves the name alone when unbalanced. */
function removeMatching(name: string, start: string, end: string): string {
  let nesting = 0
  let first = 0
  for (let i = 0; i < name.length; i++) {
    const c = name[i]
    if (c === start) {
      nesting++
      if (nesting === 1) first = i
    } else if (c === end) {
      nesting--
      if (nesting < 0) return name
      if (nesting === 0) {
        name = name.slice(0, first) + name.slice(i + 1)
        i = first - 1
      }
    }
  }
  return name
}

export interface PrunedFrames {
  /** Per location, the first line kept (lines before it are pruned). */
  lineStart: Int32Array | undefined
  /** Per sample, the first stack entry kept, plus the end sentinel. */
  sampleStart: Uint32Array | undefined
}

const RESERVED = ['(anonymous namespace)', 'operator()']

/** profile.simplifyFunc: cut the argument list at the first "(". */
function simplifyFunc(f: string): string {
  let name = f.startsWith('.') ? f.slice(1) : f
  let i = 0
  for (;;) {
    const p = name.indexOf('(', i)
    if (p < 0) break
    const reserved = RESERVED.find((r) => name.startsWith(r, p))
    if (reserved === undefined) {
      name = name.slice(0, p)
      break
    }
    i = p + reserved.length
  }
  return name
}

function goRegexp(source: string): GoRegexp | undefined {
  try {
    // The profile's own expression, matched against its own names: both a stranger's, so RE2 (linear) only.
    return compileGoRegexp(source, { whole: true })
  } catch {
    return undefined // pprof ignores a drop_frames it cannot compile
  }
}

/** profile.Prune as driven by the profile's own drop_frames/keep_frames. */
export function pruneFrames(profile: Profile, fnNames: readonly string[]): PrunedFrames {
  const none = { lineStart: undefined, sampleStart: undefined }
  if (profile.dropFrames === '') return none
  const drop = goRegexp(profile.dropFrames)
  if (drop === undefined) return none
  const keep = profile.keepFrames !== '' ? goRegexp(profile.keepFrames) : undefined
  if (profile.keepFrames !== '' && keep === undefined) return none

  const cache = new Map<string, boolean>()
  const pruneHere = (name: string): boolean => {
    let r = cache.get(name)
    if (r === undefined) {
      const f = simplifyFunc(name)
      r = drop.test(f) && (keep === undefined || !keep.test(f))
      cache.set(name, r)
    }
    return r
  }
  const nLoc = profile.locations.length
  const prune = new Uint8Array(nLoc)
  const beneath = new Uint8Array(nLoc)
  const lineStart = new Int32Array(nLoc)
  profile.locations.forEach((loc, l) => {
    let i = loc.lines.length - 1
    for (; i >= 0; i--) {
      const name = fnNames[loc.lines[i]!.functionIndex] ?? ''
      if (name !== '' && pruneHere(name)) break
    }
    if (i >= 0) {
      beneath[l] = 1
      if (i === loc.lines.length - 1) prune[l] = 1
      else lineStart[l] = i + 1
    }
  })

  const { count, locationStart, locationIndex } = profile.samples
  const sampleStart = locationStart.slice()
  for (let s = 0; s < count; s++) {
    let foundUser = false
    for (let i = locationStart[s + 1]! - 1; i >= locationStart[s]!; i--) {
      const id = locationIndex[i]!
      if (prune[id] === 0 && beneath[id] === 0) {
        foundUser = true
        continue
      }
      if (!foundUser) continue
      sampleStart[s] = prune[id] === 1 ? i + 1 : i
      break
    }
  }
  return { lineStart, sampleStart }
}
