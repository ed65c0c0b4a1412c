import { filterSamples } from './filter.js'
import { buildNodes, resolveSampleIndex, type NodeTable } from './top.js'
import type { Profile } from './types.js'

/*
 * The call tree a flame graph draws: every sample's stack from the root
 * (outermost frame) to the leaf, merged where the path is the same, each
 * frame as wide as the samples under it. Frames are named as `pprof top`
 * names its nodes (function names, inlined frames of their own, "[binary]"
 * for an unsymbolised location, the profile's drop_frames applied), so a
 * frame's name is a row of `pprof top` and the widest frame is the row of
 * `pprof top --cum` with the most samples.
 */

export interface FlameOptions {
  /** Sample type name or index, as `pprof top --sample-index`. */
  sampleIndex?: string | number
  focus?: string
  ignore?: string
  /** Frames narrower than this fraction of the total are left out (their samples stay in their parent). */
  minFraction?: number
}

/** The tree in pre-order, children widest first: frame i is name[i] at depth[i], value[i] wide. */
export interface FlameGraph {
  sampleType: string
  unit: string
  /** The root's value: every kept sample. */
  total: number
  /** Distinct frame names; name[i] indexes it. The root is "root". */
  names: string[]
  name: Uint32Array
  depth: Uint32Array
  value: Float64Array
  /** Samples whose stack ends in the frame. */
  self: Float64Array
  maxDepth: number
  /** Frames left out for being under minFraction of the total, and the samples they held. */
  omitted: { frames: number; value: number }
  /** Samples with a negative value (a flame graph has no room for them; only hand-made profiles have any). */
  negativeSamples: number
  activeFilters: string[]
  unmatchedFilters: string[]
  timeNanos: number
  durationNanos: number
}

/** Below this share of the total a frame is under a pixel on any screen at 100x zoom. */
export const DEFAULT_MIN_FRACTION = 0.0001

export function flameGraph(profile: Profile, options: FlameOptions = {}): FlameGraph {
  const sampleIndex = resolveSampleIndex(profile, options.sampleIndex)
  const filtered = filterSamples(profile, options)
  const stacks = new Stacks(profile, sampleIndex, filtered.keep)
  const tree = mergeStacks(stacks, stacks.total * (options.minFraction ?? DEFAULT_MIN_FRACTION))
  const sampleType = profile.sampleTypes[sampleIndex]!
  return {
    sampleType: sampleType.type,
    unit: sampleType.unit,
    total: stacks.total,
    names: stacks.names,
    name: tree.name.slice(0, tree.count),
    depth: tree.depth.slice(0, tree.count),
    value: tree.value.slice(0, tree.count),
    self: tree.self.slice(0, tree.count),
    maxDepth: tree.maxDepth,
    omitted: tree.omitted,
    negativeSamples: stacks.negativeSamples,
    activeFilters: filtered.active,
    unmatchedFilters: filtered.unmatched,
    timeNanos: profile.timeNanos,
    durationNanos: profile.durationNanos,
  }
}

/** The drawn samples (positive value, through the filters) in profile order, their stacks read from the root. */
class Stacks {
  /** Distinct frame names; the root is "root" (0). */
  readonly names: string[]
  total = 0
  negativeSamples = 0
  readonly count: number
  readonly weight: Float64Array
  /**
   * Sample k's frames are frame[start[k]], frame[start[k] + 1] ... outermost first (an inlined call after the
   * function it was inlined into), up to the next 0: each sample's frames come after a header of three, a 0 and how
   * many frames it has in two halves of 16 bits, and after the last sample's frames comes a 0. A frame is its name's
   * index. Two bytes a frame where the names allow (nearly always): a CPU profile has millions of frames, and fresh
   * memory costs more to touch the first time than to write.
   */
  readonly start: Int32Array
  readonly frame: FrameArray

  constructor(profile: Profile, sampleIndex: number, keep: Uint8Array | undefined) {
    const g = buildNodes(profile)
    this.names = ['root', ...g.names]
    const { samples } = profile
    const nt = profile.sampleTypes.length
    const { locationStart, locationIndex, values } = samples
    const { locNodeStart, sampleStart } = g
    // Frames per location.
    const size = new Int32Array(locNodeStart.length - 1)
    let most = 0
    for (let l = 0; l < size.length; l++) most = Math.max(most, (size[l] = locNodeStart[l + 1]! - locNodeStart[l]!))
    const drawn = new Int32Array(samples.count)
    let count = 0
    // A header per sample, and the 0 after the last.
    let frames = 1
    let locations = 0
    for (let s = 0; s < samples.count; s++) {
      const w = values[s * nt + sampleIndex]!
      if (w < 0) this.negativeSamples++
      if (!(w > 0) || (keep !== undefined && keep[s] === 0)) continue
      drawn[count++] = s
      frames += HEADER
      locations += locationStart[s + 1]! - sampleStart[s]!
    }
    // Room for `most` frames a location, without reading every location to count them: memory never written is
    // never touched, so costs nothing. A location of many inlined frames (more than SLOTS) is counted exactly.
    if (most <= SLOTS) frames += locations * most
    else
      for (let k = 0; k < count; k++) {
        const s = drawn[k]!
        for (let i = sampleStart[s]!, end = locationStart[s + 1]!; i < end; i++) frames += size[locationIndex[i]!]!
      }
    this.count = count
    this.weight = new Float64Array(count)
    this.start = new Int32Array(count)
    this.frame = this.names.length <= 0xffff ? new Uint16Array(frames + SLOTS - 1) : new Int32Array(frames + SLOTS - 1)
    for (let k = 0; k < count; k++) {
      const w = values[drawn[k]! * nt + sampleIndex]!
      this.weight[k] = w
      this.total += w
    }
    writeFrames(this.frame, this.start, drawn.subarray(0, count), samples, g, size)
  }
}

/** Runs of this many samples or fewer are counted by comparing their samples pairwise (FrameSplitter.pathCount). */
const FEW = 12

/** Frames a location writes in one go, whatever its count (most have one or two): a branch on a random count costs more than the copy. */
const SLOTS = 4

/** A sample's header in Stacks.frame: 0 (where the previous sample's frames end), then its depth's low and high 16 bits. */
const HEADER = 3

type FrameArray = Uint16Array | Int32Array

/** Stacks.frame and Stacks.start of the drawn samples. */
function writeFrames(frame: FrameArray, start: Int32Array, drawn: Int32Array, samples: Profile['samples'], g: NodeTable, size: Int32Array): void {
  const { locationStart, locationIndex } = samples
  const { locNodeStart, locNodes, sampleStart } = g
  const locations = size.length
  // Per location its frames outermost first, SLOTS a location (the rest are written one by one).
  const slots = new Int32Array(locations * SLOTS)
  for (let l = 0; l < locations; l++) {
    for (let j = 0; j < Math.min(SLOTS, size[l]!); j++) slots[l * SLOTS + j] = locNodes[locNodeStart[l + 1]! - 1 - j]! + 1
  }
  let at = 0
  for (let k = 0; k < drawn.length; k++) {
    const s = drawn[k]!
    const header = at
    at += HEADER
    start[k] = at
    for (let i = locationStart[s + 1]! - 1, a = sampleStart[s]!; i >= a; i--) {
      const loc = locationIndex[i]!
      const n = size[loc]!
      if (n <= SLOTS) {
        const from = loc * SLOTS
        frame[at] = slots[from]!
        frame[at + 1] = slots[from + 1]!
        frame[at + 2] = slots[from + 2]!
        frame[at + 3] = slots[from + 3]!
        at += n
      } else for (let j = locNodeStart[loc + 1]! - 1, lo = locNodeStart[loc]!; j >= lo; j--) frame[at++] = locNodes[j]! + 1
    }
    // Written after the frames: the last location's spare slots of the previous sample reach into it.
    const depth = at - header - HEADER
    frame[header] = 0
    frame[header + 1] = depth & 0xffff
    frame[header + 2] = depth >>> 16
  }
  frame[at] = 0
}

/** The graph's tree, its arrays grown as frames come (the first `count` of each are the frames). */
type Merged = Pick<FlameGraph, 'name' | 'depth' | 'value' | 'self' | 'maxDepth' | 'omitted'> & { count: number }

/** A frame to draw: its name and depth, and its samples, a run of the sort order (in FrameSplitter's order `side`), with what they weigh. */
interface Frame {
  name: number
  depth: number
  lo: number
  hi: number
  side: number
  value: number
}

/**
 * The call tree in pre-order, children widest first (then by name), frames under `cutoff` left out. The
 * samples are sorted frame by frame from the root, each frame's samples one run of the order, so the work
 * follows what is kept: a frame left out is only counted, with the frames under it, and a run of one sample
 * counts the rest of its stack at once. A real CPU profile merges into millions of frames and draws thousands.
 */
function mergeStacks(stacks: Stacks, cutoff: number): Merged {
  const split = new FrameSplitter(stacks)
  const out: Merged = {
    count: 0,
    name: new Uint32Array(1024),
    depth: new Uint32Array(1024),
    value: new Float64Array(1024),
    self: new Float64Array(1024),
    maxDepth: 0,
    omitted: { frames: 0, value: 0 },
  }
  const emit = (name: number, depth: number, value: number, self: number): void => {
    if (out.count === out.name.length) grow(out)
    out.name[out.count] = name
    out.depth[out.count] = depth
    out.value[out.count] = value
    out.self[out.count++] = self
    if (depth > out.maxDepth) out.maxDepth = depth
  }
  // An explicit stack: a stranger's profile may be thousands of frames deep.
  const todo: Frame[] = [{ name: 0, depth: 0, lo: 0, hi: stacks.count, side: 0, value: stacks.total }]
  while (todo.length > 0) {
    const { name, depth, lo, hi, side, value } = todo.pop()!
    if (hi - lo === 1) {
      // One sample: the rest of its stack is a chain, all as wide as the sample.
      const first = split.first[side]![lo]!
      const last = split.depthOf(first)
      emit(name, depth, value, depth === last ? value : 0)
      for (let d = depth + 1; d <= last; d++) emit(split.frame[first + d - 1]!, d, value, d === last ? value : 0)
      continue
    }
    emit(name, depth, value, 0)
    // Frames all its samples share next (a call chain) are as wide as it and hold no sample's end: drawn at once,
    // read sample by sample (each one's frames are side by side in memory) instead of a split per frame. The
    // root's only child may still be too narrow (minFraction above 1).
    let last = depth
    if (value >= cutoff && value > 0) {
      const first = split.first[side]![lo]!
      last += split.chainLength(lo, hi, depth, side)
      for (let d = depth + 1; d <= last; d++) emit(split.frame[first + d - 1]!, d, value, 0)
    }
    // The last frame of the chain (or the frame itself) splits into its children.
    const n = split.split(lo, hi, last, side)
    out.self[out.count - 1] = split.self[0]!
    const children = Array.from({ length: n }, (_, c) => ({
      name: split.name[c]!,
      depth: last + 1,
      lo: split.lo[c]!,
      hi: split.hi[c]!,
      side: split.side,
      value: split.value[c]!,
    }))
    const kept: Frame[] = []
    for (const child of children)
      if (child.value >= cutoff && child.value > 0) kept.push(child)
      else {
        // Counting splits the child's run again: the split's children are read before.
        out.omitted.frames += split.frameCount(child.lo, child.hi, last + 1, child.side)
        out.omitted.value += child.value
      }
    kept.sort((a, b) => b.value - a.value || compareNames(stacks.names[a.name]!, stacks.names[b.name]!))
    for (let i = kept.length - 1; i >= 0; i--) todo.push(kept[i]!)
  }
  return out
}

function grow(out: Merged): void {
  const widen = <T extends Uint32Array | Float64Array>(old: T): T => {
    const next = new (old.constructor as new (n: number) => T)(old.length * 2)
    next.set(old)
    return next
  }
  out.name = widen(out.name)
  out.depth = widen(out.depth)
  out.value = widen(out.value)
  out.self = widen(out.self)
}

/**
 * The samples in their sort order (where each one's frames start, and its weight), and the split of a frame's run
 * into its children's runs: a stable counting sort by the next frame's name, so every run stays in profile order
 * (sums add up as in a sample-by-sample merge). The order is kept twice (sides 0 and 1): a split reads its run
 * from one side and writes its children's runs to the other, in the same places.
 */
class FrameSplitter {
  /** The samples' frames (Stacks.frame); per side and sample in sort order, its first frame's place and its weight. */
  readonly frame: FrameArray
  readonly first: [Int32Array, Int32Array]
  readonly weight: [Float64Array, Float64Array]
  /**
   * The last split: what ended in the frame (self[0]), the side its children's runs are on, and its children
   * (first seen first). Self is held in an array: a field that holds 0 and then a weight of no small integer
   * changes the object's shape, and the loop's optimised code (compiled on the stack) bailed out on it at every
   * split, hundreds of thousands of times a run.
   */
  readonly self = new Float64Array(1)
  side = 0
  readonly name: Int32Array
  readonly lo: Int32Array
  readonly hi: Int32Array
  readonly value: Float64Array
  /** Per sample of the run, its group; per group (children and the samples that ended) its name, size and value. */
  private readonly key: Int32Array
  private readonly groupName: Int32Array
  private readonly groupSize: Int32Array
  private readonly groupValue: Float64Array
  /** Per frame name its group in the current split, or -1. */
  private readonly slot: Int32Array

  constructor(stacks: Stacks) {
    this.frame = stacks.frame
    const n = stacks.count
    this.first = [stacks.start, new Int32Array(n)]
    this.weight = [stacks.weight, new Float64Array(n)]
    this.key = new Int32Array(n)
    this.slot = new Int32Array(stacks.names.length).fill(-1)
    const most = Math.min(n, stacks.names.length)
    this.name = new Int32Array(most)
    this.lo = new Int32Array(most)
    this.hi = new Int32Array(most)
    this.value = new Float64Array(most)
    this.groupName = new Int32Array(most + 1)
    this.groupSize = new Int32Array(most + 1)
    this.groupValue = new Float64Array(most + 1)
  }

  /** How many frames the sample whose frames start at `first` has: the depth of its leaf. */
  depthOf(first: number): number {
    return this.frame[first - 2]! | (this.frame[first - 1]! << 16)
  }

  /**
   * How many frames after `depth` all the samples of the run [lo, hi) on `side` have, the same ones: the first
   * sample's frames, cut where another sample's differ or end (a sample's frames end in a 0, its successor's header
   * or the final one, never equal to a frame).
   */
  chainLength(lo: number, hi: number, depth: number, side: number): number {
    const { frame } = this
    const first = this.first[side]!
    const from = first[lo]! + depth
    let length = this.depthOf(first[lo]!) - depth
    for (let i = lo + 1; i < hi && length > 0; i++) {
      const at = first[i]! + depth
      let e = 0
      while (e < length && frame[at + e] === frame[from + e]) e++
      length = e
    }
    return length
  }

  /**
   * Splits the run [lo, hi) on `side` of a frame at `depth` into its children's runs; returns how many children.
   * Unweighed (for counting), the weights are neither added nor moved. Each loop is a method of its own that
   * returns as it ends: the first split is of every sample, so its loop is compiled while it runs, before the code
   * after it ever ran; that code, compiled with nothing known of it, bailed out on every later split.
   */
  split(lo: number, hi: number, depth: number, side: number, weighed = true): number {
    const groups = this.group(lo, hi, depth, side, weighed)
    const ended = this.slot[0]!
    this.clearSlots(groups)
    const endedCount = ended < 0 ? 0 : this.groupSize[ended]!
    this.self[0] = ended < 0 ? 0 : this.groupValue[ended]!
    const n = ended < 0 ? groups : groups - 1
    // One child and nothing ended here (a call chain): the run stays as it is.
    if (n === 1 && endedCount === 0) {
      this.name[0] = this.groupName[0]!
      this.value[0] = this.groupValue[0]!
      this.lo[0] = lo
      this.hi[0] = hi
      this.side = side
      return 1
    }
    this.layout(lo, groups, ended, endedCount)
    this.place(lo, hi, side, weighed)
    this.side = 1 - side
    return n
  }

  /**
   * Groups the run's samples by their frame at `depth` (group 0 for those that end there, at the 0 after their
   * frames), first seen first: key[i] is sample i's group, with its size and (weighed) its value.
   */
  private group(lo: number, hi: number, depth: number, side: number, weighed: boolean): number {
    const { frame, key, slot, groupName, groupSize, groupValue } = this
    const first = this.first[side]!
    const weight = this.weight[side]!
    let n = 0
    for (let i = lo; i < hi; i++) {
      const name = frame[first[i]! + depth]!
      let c = slot[name]!
      if (c < 0) {
        c = slot[name] = n++
        groupName[c] = name
        groupSize[c] = 0
        groupValue[c] = 0
      }
      key[i] = c
      groupSize[c]++
      if (weighed) groupValue[c] += weight[i]!
    }
    return n
  }

  private clearSlots(groups: number): void {
    const { slot, groupName } = this
    for (let c = 0; c < groups; c++) slot[groupName[c]!] = -1
  }

  /**
   * The children's runs one after the other, after the samples that ended (read no more), as name, lo, hi and
   * value; groupSize[c] becomes where group c's next sample goes.
   */
  private layout(lo: number, groups: number, ended: number, endedCount: number): void {
    const { groupName, groupSize, groupValue, name, value } = this
    const from = this.lo
    const to = this.hi
    let next = lo + endedCount
    let k = 0
    for (let c = 0; c < groups; c++) {
      const size = groupSize[c]!
      if (c === ended) {
        groupSize[c] = lo
        continue
      }
      name[k] = groupName[c]!
      value[k] = groupValue[c]!
      from[k] = next
      groupSize[c] = next
      next += size
      to[k++] = next
    }
  }

  /** The run's samples written to the other side, each to its group's next place. */
  private place(lo: number, hi: number, side: number, weighed: boolean): void {
    const { key, groupSize: next } = this
    const first = this.first[side]!
    const weight = this.weight[side]!
    const toFirst = this.first[1 - side]!
    const toWeight = this.weight[1 - side]!
    for (let i = lo; i < hi; i++) {
      const to = next[key[i]!]!++
      toFirst[to] = first[i]!
      if (weighed) toWeight[to] = weight[i]!
    }
  }

  /** How many frames a frame left out holds, itself included: the distinct paths under it. */
  frameCount(lo: number, hi: number, depth: number, side: number): number {
    let frames = 0
    const todo = [lo, hi, depth, side]
    while (todo.length > 0) {
      const s = todo.pop()!
      const d = todo.pop()!
      const h = todo.pop()!
      const l = todo.pop()!
      if (h - l <= FEW) frames += this.pathCount(l, h, d, s)
      else {
        frames++
        const chain = this.chainLength(l, h, d, s)
        frames += chain
        const n = this.split(l, h, d + chain, s, false)
        for (let c = 0; c < n; c++) todo.push(this.lo[c]!, this.hi[c]!, d + chain + 1, this.side)
      }
    }
    return frames
  }

  /**
   * frameCount of a run of a few samples, without splitting it (most runs left out are of a few samples, and a split
   * costs more than comparing them): the frame itself, and each sample's frames below it that no earlier sample of
   * the run shares, as a trie of their paths counts them.
   */
  private pathCount(lo: number, hi: number, depth: number, side: number): number {
    const { frame } = this
    const first = this.first[side]!
    let frames = 1
    for (let i = lo; i < hi; i++) {
      const a = first[i]! + depth
      const length = this.depthOf(first[i]!) - depth
      let shared = 0
      for (let j = lo; j < i && shared < length; j++) {
        const b = first[j]! + depth
        const most = Math.min(length, this.depthOf(first[j]!) - depth)
        let e = 0
        while (e < most && frame[a + e] === frame[b + e]) e++
        if (e > shared) shared = e
      }
      frames += length - shared
    }
    return frames
  }
}

const compareNames = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
