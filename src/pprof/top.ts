import { ProfileUsageError } from './errors.js'
import { filterSamples } from './filter.js'
import { scale } from './measurement.js'
import { effectiveFunctionNames, pruneFrames } from './symbols.js'
import type { Profile } from './types.js'

/*
 * `go tool pprof -top` at the default granularity (functions), following
 * google/pprof: driver.aggregate, report.newTrimmedGraph, graph.newGraph,
 * report.TextItems and report.selectOutputUnit. One node per function
 * name; inlined frames are nodes of their own; cum counts a node once per
 * sample; nodes whose |cum| is under nodeFraction of the total are dropped,
 * which leaves flat and cum of the kept nodes unchanged but re-routes
 * call edges, and edges decide the "(inline)" marks.
 */

export interface TopOptions {
  /** Sample type name (e.g. "alloc_space") or index; default as pprof picks it. */
  sampleIndex?: string | number
  /** pprof -nodefraction; default 0.005. 0 keeps every node. */
  nodeFraction?: number
  /** pprof -edgefraction; default 0.001. Only affects the inline marks. */
  edgeFraction?: number
  /** pprof -nodecount; default 0 (all nodes, as -top does). */
  nodeCount?: number
  /** pprof -cum: sort by cumulative value. */
  cum?: boolean
  /** pprof -focus: keep samples through a function, file or binary matching this Go regexp. */
  focus?: string
  /** pprof -ignore: drop samples through a function, file or binary matching this Go regexp. */
  ignore?: string
}

export type InlineMark = 'inline' | 'partial-inline' | null

export interface TopRow {
  flat: number
  /** |flat| / total * 100 */
  flatPct: number
  /** Running sum of flat in row order, as a percentage of total. */
  sumPct: number
  cum: number
  cumPct: number
  name: string
  inline: InlineMark
}

export interface TopResult {
  /** The sample type shown, e.g. "inuse_space" or "cpu". */
  sampleType: string
  /** Unit of the sample type in the profile, e.g. "bytes", "nanoseconds", "count". */
  unit: string
  sampleIndex: number
  /** The unit pprof picks for every value of this report ("MB", "s", "count", ...). */
  outputUnit: string
  /** Sum of |value| over all samples. */
  total: number
  rows: TopRow[]
  /** "Showing nodes accounting for X, P% of total": X is the shown rows' flat sum. */
  showing: { value: number; pct: number }
  /** Nodes under the node-fraction cutoff; cumThreshold is the value pprof prints. */
  dropped: { nodes: number; cumThreshold: number }
  /** Nodes left after the node-fraction cut, before -nodecount. */
  nodesAfterTrim: number
  header: TopHeader
  /** pprof's "Active filters:" entries (focus=..., ignore=...). */
  activeFilters: string[]
  /** Filters that matched nothing (go tool pprof warns "no matches found for regexp"). */
  unmatchedFilters: string[]
}

/** Profile facts pprof prints above the table. */
export interface TopHeader {
  file: string
  buildId: string
  comments: string[]
  docUrl: string
  timeNanos: number
  durationNanos: number
}

export interface SampleTypeChoice {
  index: number
  type: string
  unit: string
  /** True for the one `top` uses when no sample index is given. */
  isDefault: boolean
}

/** The sample types a profile offers, for `--sample-index` help and errors. */
export function sampleTypes(profile: Profile): SampleTypeChoice[] {
  const def = profile.sampleTypes.length === 0 ? -1 : defaultSampleIndex(profile)
  return profile.sampleTypes.map((t, index) => ({ index, type: t.type, unit: t.unit, isDefault: index === def }))
}

function defaultSampleIndex(profile: Profile): number {
  const dst = profile.defaultSampleType
  if (dst !== '') {
    const i = profile.sampleTypes.findIndex((t) => t.type === dst)
    if (i >= 0) return i
  }
  return profile.sampleTypes.length - 1
}

/** profile.SampleIndexByName, with errors that list the choices. */
export function resolveSampleIndex(profile: Profile, sampleIndex: string | number | undefined): number {
  const types = profile.sampleTypes.map((t) => t.type)
  if (types.length === 0) {
    throw new ProfileUsageError('no-sample-types', 'the profile has no sample types (it holds no samples)', [])
  }
  if (sampleIndex === undefined || sampleIndex === '') return defaultSampleIndex(profile)
  const text = String(sampleIndex)
  if (/^[+-]?\d+$/.test(text)) {
    const i = Number(text)
    if (i < 0 || i >= types.length) {
      throw new ProfileUsageError(
        'sample-index-out-of-range',
        `sample index ${text} is outside the range [0..${types.length - 1}]; the profile has: ${types.join(', ')}`,
        types,
      )
    }
    return i
  }
  // pprof accepts the legacy names inuse_space/inuse_objects for space/objects.
  const noInuse = text.startsWith('inuse_') ? text.slice('inuse_'.length) : text
  const i = types.findIndex((t) => t === text || t === noInuse)
  if (i >= 0) return i
  throw new ProfileUsageError('unknown-sample-index', `unknown sample index "${text}"; the profile has: ${types.join(', ')} (or 0..${types.length - 1})`, types)
}

/** Computes the rows of `go tool pprof -top` for a profile. */
export function topTable(profile: Profile, options: TopOptions = {}): TopResult {
  const sampleIndex = resolveSampleIndex(profile, options.sampleIndex)
  const nodeFraction = options.nodeFraction ?? 0.005
  const edgeFraction = options.edgeFraction ?? 0.001
  const sampleType = profile.sampleTypes[sampleIndex]!
  const filtered = filterSamples(profile, options)
  const keep = filtered.keep
  const g = buildNodes(profile)
  const { samples } = profile
  const nt = profile.sampleTypes.length
  const values = samples.values
  const starts = g.sampleStart
  const stacks = samples.locationIndex
  const { locNodeStart, locNodes } = g
  const n = g.names.length

  // Pass 1: flat and cum of every node (graph.newGraph without a kept set).
  const cum = new Float64Array(n)
  const flat = new Float64Array(n)
  const stamp = new Int32Array(n).fill(-1)
  let total = 0
  let baseTotal = 0
  const baseFrom = profile.diffBaseFrom ?? samples.count
  for (let s = 0; s < samples.count; s++) {
    const w = values[s * nt + sampleIndex]!
    if (w === 0) continue
    total += Math.abs(w)
    if (s >= baseFrom) baseTotal += Math.abs(w)
    if (keep !== undefined && keep[s] === 0) continue
    const a = starts[s]!
    const b = samples.locationStart[s + 1]!
    if (a === b) continue
    for (let i = b - 1; i >= a; i--) {
      const loc = stacks[i]!
      for (let j = locNodeStart[loc + 1]! - 1, lo = locNodeStart[loc]!; j >= lo; j--) {
        const node = locNodes[j]!
        if (stamp[node] !== s) {
          stamp[node] = s
          cum[node]! += w
        }
      }
    }
    flat[locNodes[locNodeStart[stacks[a]!]!]!]! += w
  }
  // report.computeTotal: with a -diff_base, percentages are of the base.
  if (baseTotal > 0) total = baseTotal

  // report.newTrimmedGraph: cutoffs come from the graph's flat sum, while
  // the "Dropped" line prints total * fraction.
  let present: number[] = []
  let flatSum = 0
  for (let i = 0; i < n; i++) {
    if (cum[i] !== 0 || flat[i] !== 0) {
      present.push(i)
      flatSum += flat[i]!
    }
  }
  const nodeCutoff = Math.abs(Math.trunc(flatSum * nodeFraction))
  const edgeCutoff = Math.abs(Math.trunc(flatSum * edgeFraction))
  let droppedNodes = 0
  if (nodeCutoff > 0) {
    const kept = present.filter((i) => Math.abs(cum[i]!) >= nodeCutoff)
    droppedNodes = present.length - kept.length
    present = kept
  }
  const nodesAfterTrim = present.length
  const order = (ids: number[]): number[] => sortNodes(ids, g, flat, cum, options.cum === true)
  present = order(present)
  const nodeCount = options.nodeCount ?? 0
  const cutByCount = nodeCount > 0 && present.length > nodeCount
  if (cutByCount) present = order(present.slice(0, nodeCount))

  // pprof rebuilds its graph over the kept nodes only when a cut removed some; otherwise its
  // edges still pass through nodes whose values cancel out (flat = cum = 0, as in a diff).
  const edgeNodes = droppedNodes > 0 || cutByCount ? present : touchedNodes(stamp)
  const marks = inlineMarks(profile, g, edgeNodes, sampleIndex, edgeCutoff, keep)

  let running = 0
  let shown = 0
  const pct = (v: number): number => (total !== 0 ? Math.abs(v / total) * 100 : 0)
  const rows: TopRow[] = present.map((i) => {
    running += flat[i]!
    shown += flat[i]!
    return {
      flat: flat[i]!,
      flatPct: pct(flat[i]!),
      sumPct: pct(running),
      cum: cum[i]!,
      cumPct: pct(cum[i]!),
      name: g.names[i]!,
      inline: marks[i] ?? null,
    }
  })

  const mapping0 = profile.mappings[0]
  return {
    sampleType: sampleType.type,
    unit: sampleType.unit,
    sampleIndex,
    outputUnit: selectOutputUnit(rows, total, sampleType.unit),
    total,
    rows,
    showing: { value: shown, pct: pct(shown) },
    dropped: { nodes: droppedNodes, cumThreshold: Math.abs(Math.trunc(total * nodeFraction)) },
    nodesAfterTrim,
    header: {
      file: mapping0?.file ?? '',
      buildId: mapping0?.buildId ?? '',
      comments: profile.comments,
      docUrl: profile.docUrl,
      timeNanos: profile.timeNanos,
      durationNanos: profile.durationNanos,
    },
    activeFilters: filtered.active,
    unmatchedFilters: filtered.unmatched,
  }
}

function touchedNodes(stamp: Int32Array): number[] {
  const out: number[] = []
  for (let i = 0; i < stamp.length; i++) if (stamp[i]! >= 0) out.push(i)
  return out
}

export interface NodeTable {
  names: string[]
  /** fmt.Sprint(NodeInfo) for the final tie-break between equal names. */
  infos: string[]
  /** Nodes of location l: locNodes[locNodeStart[l] .. locNodeStart[l+1]), innermost first. */
  locNodeStart: Uint32Array
  locNodes: Int32Array
  /** Per-sample start into locationIndex after drop_frames pruning. */
  sampleStart: Uint32Array
}

/**
 * graph.CreateNodes after driver.aggregate(functions): a node is a
 * function name; an unnamed function or a line-less location becomes a
 * node for its binary ("[file]") instead.
 */
export function buildNodes(profile: Profile): NodeTable {
  const names: string[] = []
  const infos: string[] = []
  const byKey = new Map<string, number>()
  const fnNames = effectiveFunctionNames(profile.functions)
  const pruned = pruneFrames(profile, fnNames)
  const node = (key: string, name: string, info: string): number => {
    let id = byKey.get(key)
    if (id === undefined) {
      id = names.length
      byKey.set(key, id)
      names.push(name)
      infos.push(info)
    }
    return id
  }
  const fnNode = new Int32Array(profile.functions.length).fill(-1)
  for (let f = 0; f < fnNames.length; f++) {
    const name = fnNames[f]!
    if (name !== '') fnNode[f] = node(`n${name}`, name, `{${name}  0  0 0 0 }`)
  }
  const locNodeStart = new Uint32Array(profile.locations.length + 1)
  const out: number[] = []
  profile.locations.forEach((loc, l) => {
    locNodeStart[l] = out.length
    const mapping = loc.mappingIndex >= 0 ? profile.mappings[loc.mappingIndex] : undefined
    const objfile = mapping?.file ?? ''
    const objNode = (startLine: number): number =>
      node(`o${startLine}\u0000${objfile}`, objfile === '' ? '<unknown>' : `[${goBase(objfile)}]`, `{  0  ${startLine} 0 0 ${objfile}}`)
    const first = pruned.lineStart?.[l] ?? 0
    if (loc.lines.length - first <= 0) {
      out.push(objNode(0))
    }
    for (let i = first; i < loc.lines.length; i++) {
      const f = loc.lines[i]!.functionIndex
      const id = f >= 0 ? fnNode[f]! : -1
      out.push(id >= 0 ? id : objNode(f >= 0 ? profile.functions[f]!.startLine : 0))
    }
  })
  locNodeStart[profile.locations.length] = out.length
  return {
    names,
    infos,
    locNodeStart,
    locNodes: Int32Array.from(out),
    sampleStart: pruned.sampleStart ?? profile.samples.locationStart,
  }
}

/** path/filepath.Base */
function goBase(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  if (trimmed === '') return path === '' ? '.' : '/'
  return trimmed.slice(trimmed.lastIndexOf('/') + 1)
}

/** Go compares strings by UTF-8 bytes, i.e. by code point, not UTF-16 unit. */
function goCompare(a: string, b: string): number {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x === y) continue
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000
    }
    return x < y ? -1 : 1
  }
  return a.length - b.length
}

/** graph.Nodes.Sort with FlatNameOrder or CumNameOrder. */
function sortNodes(ids: number[], g: NodeTable, flat: Float64Array, cum: Float64Array, byCum: boolean): number[] {
  const first = byCum ? cum : flat
  const second = byCum ? flat : cum
  return ids.sort((l, r) => {
    const a = Math.abs(first[l]!)
    const b = Math.abs(first[r]!)
    if (a !== b) return b - a
    // pprof stops at the name: nodes with equal names (distinct unnamed
    // functions of one binary) come out in an arbitrary order there.
    const c = goCompare(g.names[l]!, g.names[r]!)
    if (c !== 0) return c
    const d = Math.abs(second[r]!) - Math.abs(second[l]!)
    return d !== 0 ? d : goCompare(g.infos[l]!, g.infos[r]!)
  })
}

/**
 * report.TextItems marks a node "(inline)" when all its incoming edges are
 * inline calls and "(partial-inline)" when only some are. Edges are built
 * over the kept nodes only (skipping dropped frames), deduplicated per
 * sample, and edges lighter than edgeCutoff are removed first.
 */
function inlineMarks(profile: Profile, g: NodeTable, kept: number[], sampleIndex: number, edgeCutoff: number, keep: Uint8Array | undefined): InlineMark[] {
  const { samples } = profile
  const nt = profile.sampleTypes.length
  const values = samples.values
  const stacks = samples.locationIndex
  const ends = samples.locationStart
  const starts = g.sampleStart
  const { locNodeStart, locNodes } = g
  const isKept = new Uint8Array(g.names.length)
  for (const i of kept) isKept[i] = 1
  // Only nodes that occur as inlined (non-outermost) lines can get a mark;
  // edges into all other nodes are plain calls and need no bookkeeping.
  const canInline = new Uint8Array(g.names.length)
  for (let loc = 0; loc + 1 < locNodeStart.length; loc++) {
    for (let j = locNodeStart[loc]!; j < locNodeStart[loc + 1]! - 1; j++) canInline[locNodes[j]!] = 1
  }
  const edges = new EdgeTable(g.names.length)
  collectEdges(edges, values, nt, sampleIndex, samples.count, stacks, ends, starts, locNodeStart, locNodes, isKept, canInline, keep)

  const inline = new Uint8Array(g.names.length)
  const direct = new Uint8Array(g.names.length)
  for (let e = 0; e < edges.size; e++) {
    if (Math.abs(edges.weight(e)) < edgeCutoff) continue
    const dst = edges.dstOf[e]!
    if (edges.inline(e)) inline[dst] = 1
    else direct[dst] = 1
  }
  const marks: InlineMark[] = []
  for (const i of kept) marks[i] = inline[i] === 1 ? (direct[i] === 1 ? 'partial-inline' : 'inline') : null
  return marks
}

/** The hot loop of inlineMarks, kept apart so V8 optimises it on its own. */
function collectEdges(
  edges: EdgeTable,
  values: Float64Array,
  nt: number,
  sampleIndex: number,
  count: number,
  stacks: Uint32Array,
  ends: Uint32Array,
  starts: Uint32Array,
  locNodeStart: Uint32Array,
  locNodes: Int32Array,
  isKept: Uint8Array,
  canInline: Uint8Array,
  keep: Uint8Array | undefined,
): void {
  // Stacks repeat: remember, per frame slot, the last parent and its edge.
  const memo = new Int32Array(locNodes.length * 2).fill(-1) // parent, edge
  for (let s = 0; s < count; s++) {
    const w = values[s * nt + sampleIndex]!
    if (w === 0 || (keep !== undefined && keep[s] === 0)) continue
    let parent = -1
    for (let i = ends[s + 1]! - 1, a = starts[s]!; i >= a; i--) {
      const loc = stacks[i]!
      const lo = locNodeStart[loc]!
      const outer = locNodeStart[loc + 1]! - 1
      for (let j = outer; j >= lo; j--) {
        const node = locNodes[j]!
        if (isKept[node] === 0) continue
        if (parent >= 0 && node !== parent && canInline[node] === 1) {
          let e: number
          if (memo[j * 2] === parent) e = memo[j * 2 + 1]!
          else {
            e = edges.find(parent, node)
            memo[j * 2] = parent
            memo[j * 2 + 1] = e
          }
          edges.add(e, w, j !== outer, s)
        }
        parent = node
      }
    }
  }
}

/**
 * Open-addressing map from (src, dst) node pairs to edge records. Keys and
 * records are interleaved so a lookup touches one cache line: profiles with
 * millions of frames make this the hottest memory in the report.
 */
class EdgeTable {
  size = 0
  /** Per slot: src, dst, edge id + 1 (0 = empty), unused. */
  private slots: Int32Array
  /** Per edge: sample that last added to it, weight, inline (1/0). */
  private data: Float64Array
  dstOf: Int32Array

  constructor(nodes: number) {
    const cap = 1 << Math.max(10, Math.ceil(Math.log2(Math.max(nodes, 1) * 4)))
    this.slots = new Int32Array(cap * 4)
    this.data = new Float64Array((cap >>> 1) * 3)
    this.dstOf = new Int32Array(cap >>> 1)
  }

  weight(e: number): number {
    return this.data[e * 3 + 1]!
  }

  inline(e: number): boolean {
    return this.data[e * 3 + 2] === 1
  }

  /** The edge for a (src, dst) pair, created empty on first use. */
  find(src: number, dst: number): number {
    const slots = this.slots
    const mask = (slots.length >>> 2) - 1
    let h = (Math.imul(src, 0x9e3779b1) ^ Math.imul(dst, 0x85ebca77)) & mask
    for (;;) {
      const k = h << 2
      const id = slots[k + 2]!
      if (id === 0) break
      if (slots[k] === src && slots[k + 1] === dst) return id - 1
      h = (h + 1) & mask
    }
    const e = this.size++
    const k = h << 2
    slots[k] = src
    slots[k + 1] = dst
    slots[k + 2] = e + 1
    this.dstOf[e] = dst
    this.data[e * 3] = -1
    this.data[e * 3 + 1] = 0
    this.data[e * 3 + 2] = 1
    if (this.size * 2 >= mask + 1) this.rehash()
    return e
  }

  /** graph.Node.AddToEdgeDiv, once per sample per pair: inline only if every call was. */
  add(e: number, w: number, inline: boolean, sample: number): void {
    const d = this.data
    const k = e * 3
    if (d[k] === sample) return
    d[k] = sample
    d[k + 1]! += w
    if (!inline) d[k + 2] = 0
  }

  private rehash(): void {
    const old = this.slots
    const cap = (old.length >>> 2) * 2
    const mask = cap - 1
    const slots = new Int32Array(cap * 4)
    for (let k = 0; k < old.length; k += 4) {
      if (old[k + 2] === 0) continue
      let h = (Math.imul(old[k]!, 0x9e3779b1) ^ Math.imul(old[k + 1]!, 0x85ebca77)) & mask
      while (slots[(h << 2) + 2] !== 0) h = (h + 1) & mask
      slots.set(old.subarray(k, k + 4), h << 2)
    }
    this.slots = slots
    const data = new Float64Array((cap >>> 1) * 3)
    data.set(this.data)
    this.data = data
    const dstOf = new Int32Array(cap >>> 1)
    dstOf.set(this.dstOf)
    this.dstOf = dstOf
  }
}

/** report.selectOutputUnit: one unit for the whole report. */
function selectOutputUnit(rows: TopRow[], total: number, sampleUnit: string): string {
  if (rows.length === 0) return 'minimum'
  let minValue = 0
  for (const r of rows) {
    let v = Math.abs(r.flat)
    if (v === 0) v = Math.abs(r.cum)
    if (v > 0 && (minValue === 0 || v < minValue)) minValue = v
  }
  const maxValue = total
  if (minValue === 0) minValue = maxValue
  const minUnit = scale(minValue, sampleUnit, 'minimum')[1]
  const maxUnit = scale(maxValue, sampleUnit, 'minimum')[1]
  let unit = minUnit
  if (minUnit !== maxUnit && minValue * 100 < maxValue) unit = scale(100 * minValue, sampleUnit, 'minimum')[1]
  return unit !== '' ? unit : sampleUnit
}
