import { filterSamples } from './filter.js'
import { buildNodes, resolveSampleIndex } from './top.js'
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
  const tree = buildTree(profile, sampleIndex, filtered.keep)
  const { order, omitted } = preorder(tree, tree.value[0]! * (options.minFraction ?? DEFAULT_MIN_FRACTION))
  const sampleType = profile.sampleTypes[sampleIndex]!
  const graph: FlameGraph = {
    sampleType: sampleType.type,
    unit: sampleType.unit,
    total: tree.value[0]!,
    names: tree.names,
    name: new Uint32Array(order.length),
    depth: new Uint32Array(order.length),
    value: new Float64Array(order.length),
    self: new Float64Array(order.length),
    maxDepth: 0,
    omitted,
    negativeSamples: tree.negativeSamples,
    activeFilters: filtered.active,
    unmatchedFilters: filtered.unmatched,
    timeNanos: profile.timeNanos,
    durationNanos: profile.durationNanos,
  }
  order.forEach(([node, depth], i) => {
    graph.name[i] = tree.name[node]!
    graph.depth[i] = depth
    graph.value[i] = tree.value[node]!
    graph.self[i] = tree.self[node]!
    if (depth > graph.maxDepth) graph.maxDepth = depth
  })
  return graph
}

interface Tree {
  names: string[]
  negativeSamples: number
  count: number
  name: Int32Array
  value: Float64Array
  self: Float64Array
  firstChild: Int32Array
  nextSibling: Int32Array
}

/** A growable tree in typed arrays: a real CPU profile merges into hundreds of thousands of frames. */
function buildTree(profile: Profile, sampleIndex: number, keep: Uint8Array | undefined): Tree {
  const g = buildNodes(profile)
  const names = ['root', ...g.names]
  let capacity = 1024
  const tree: Tree = {
    names,
    negativeSamples: 0,
    count: 1,
    name: new Int32Array(capacity),
    value: new Float64Array(capacity),
    self: new Float64Array(capacity),
    firstChild: new Int32Array(capacity).fill(-1),
    nextSibling: new Int32Array(capacity).fill(-1),
  }
  const grow = (): void => {
    capacity *= 2
    const widen = <T extends Int32Array | Float64Array>(old: T, fill: number): T => {
      const next = new (old.constructor as new (n: number) => T)(capacity)
      next.fill(fill)
      next.set(old)
      return next
    }
    tree.name = widen(tree.name, 0)
    tree.value = widen(tree.value, 0)
    tree.self = widen(tree.self, 0)
    tree.firstChild = widen(tree.firstChild, -1)
    tree.nextSibling = widen(tree.nextSibling, -1)
  }
  const children = new ChildTable()
  const childOf = (parent: number, name: number): number => {
    let child = children.get(parent, name)
    if (child < 0) {
      if (tree.count === capacity) grow()
      child = tree.count++
      tree.name[child] = name
      tree.nextSibling[child] = tree.firstChild[parent]!
      tree.firstChild[parent] = child
      children.set(parent, name, child)
    }
    return child
  }
  const { samples } = profile
  const nt = profile.sampleTypes.length
  const { locNodeStart, locNodes, sampleStart } = g
  // Stacks repeat: per frame slot, the last parent seen there and the child it led to, so most steps skip the map.
  const memoParent = new Int32Array(locNodes.length).fill(-1)
  const memoChild = new Int32Array(locNodes.length)
  for (let s = 0; s < samples.count; s++) {
    const w = samples.values[s * nt + sampleIndex]!
    if (w < 0) tree.negativeSamples++
    if (!(w > 0) || (keep !== undefined && keep[s] === 0)) continue
    tree.value[0]! += w
    let at = 0
    for (let i = samples.locationStart[s + 1]! - 1, a = sampleStart[s]!; i >= a; i--) {
      const loc = samples.locationIndex[i]!
      // Outermost line first: an inlined call is drawn above the function it was inlined into.
      for (let j = locNodeStart[loc + 1]! - 1, lo = locNodeStart[loc]!; j >= lo; j--) {
        if (memoParent[j] === at) at = memoChild[j]!
        else {
          memoParent[j] = at
          at = memoChild[j] = childOf(at, locNodes[j]! + 1)
        }
        tree.value[at]! += w
      }
    }
    tree.self[at]! += w
  }
  return tree
}

/** Frames in pre-order with their depth, children widest first (then by name), skipping those under `cutoff`. */
function preorder(tree: Tree, cutoff: number): { order: [number, number][]; omitted: { frames: number; value: number } } {
  const order: [number, number][] = []
  const omitted = { frames: 0, value: 0 }
  // An explicit stack: a stranger's profile may be thousands of frames deep.
  const stack: [number, number][] = [[0, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    order.push([node, depth])
    const kids: number[] = []
    for (let c = tree.firstChild[node]!; c >= 0; c = tree.nextSibling[c]!) {
      if (tree.value[c]! >= cutoff && tree.value[c]! > 0) kids.push(c)
      else {
        omitted.frames += subtreeSize(tree, c)
        omitted.value += tree.value[c]!
      }
    }
    kids.sort((a, b) => tree.value[b]! - tree.value[a]! || compareNames(tree.names[tree.name[a]!]!, tree.names[tree.name[b]!]!))
    for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k]!, depth + 1])
  }
  return { order, omitted }
}

function subtreeSize(tree: Tree, root: number): number {
  let size = 0
  const stack = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    size++
    for (let c = tree.firstChild[node]!; c >= 0; c = tree.nextSibling[c]!) stack.push(c)
  }
  return size
}

const compareNames = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * (parent frame, name) -> child frame, open addressing over one Int32Array. A Map keyed by parent * names
 * + name (heap numbers past 2^31) took twice as long on bench's synthetic profile (7.8 million frames).
 */
class ChildTable {
  private slots = new Int32Array(4096 * 3).fill(-1)
  private size = 0

  private slotOf(parent: number, name: number): number {
    const mask = this.slots.length / 3 - 1
    let h = (Math.imul(parent, 0x9e3779b1) ^ Math.imul(name, 0x85ebca77)) & mask
    for (;;) {
      const k = h * 3
      if (this.slots[k] === -1 || (this.slots[k] === parent && this.slots[k + 1] === name)) return k
      h = (h + 1) & mask
    }
  }

  get(parent: number, name: number): number {
    const k = this.slotOf(parent, name)
    return this.slots[k] === -1 ? -1 : this.slots[k + 2]!
  }

  set(parent: number, name: number, child: number): void {
    const k = this.slotOf(parent, name)
    this.slots[k] = parent
    this.slots[k + 1] = name
    this.slots[k + 2] = child
    if (++this.size * 2 > this.slots.length / 3) this.rehash()
  }

  private rehash(): void {
    const old = this.slots
    this.slots = new Int32Array(old.length * 2).fill(-1)
    for (let k = 0; k < old.length; k += 3) if (old[k] !== -1) this.slots.set(old.subarray(k, k + 3), this.slotOf(old[k]!, old[k + 1]!))
  }
}
