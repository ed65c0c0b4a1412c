import { ProfileUsageError } from './errors.js'
import type { Profile, ProfileLocation } from './types.js'

/**
 * `go tool pprof -diff_base OLD NEW` before its report: driver.fetchProfiles
 * scales the base by -1, labels its samples "pprof::base" and merges it
 * after the new profile (profile.Merge, whose combineHeaders keeps the
 * earliest time, sums durations and keeps the first doc URL and default
 * sample type). The graph is built by function name, so concatenating the
 * two tables gives the nodes Merge would; all-zero samples are dropped as
 * Merge drops them. `diffBaseFrom` marks where the base samples start:
 * report.computeTotal then counts only them.
 */
export function diffProfiles(newer: Profile, base: Profile): Profile {
  checkCompatible(newer, base)
  const nt = newer.sampleTypes.length
  const kept = (p: Profile): number[] => {
    const out: number[] = []
    for (let s = 0; s < p.samples.count; s++) {
      for (let k = 0; k < nt; k++) {
        if (p.samples.values[s * nt + k] !== 0) {
          out.push(s)
          break
        }
      }
    }
    return out
  }
  const newSamples = kept(newer)
  const baseSamples = kept(base)
  const count = newSamples.length + baseSamples.length
  const frames = (p: Profile, ids: number[]): number => ids.reduce((n, s) => n + p.samples.locationStart[s + 1]! - p.samples.locationStart[s]!, 0)
  const locationStart = new Uint32Array(count + 1)
  const locationIndex = new Uint32Array(frames(newer, newSamples) + frames(base, baseSamples))
  const values = new Float64Array(count * nt)
  let row = 0
  let at = 0
  const copy = (p: Profile, ids: number[], locationOffset: number, sign: number): void => {
    for (const s of ids) {
      locationStart[row] = at
      for (let i = p.samples.locationStart[s]!; i < p.samples.locationStart[s + 1]!; i++) locationIndex[at++] = p.samples.locationIndex[i]! + locationOffset
      // Scale(-1) is exact; 0 stays 0 rather than -0 so JSON shows it plainly.
      for (let k = 0; k < nt; k++) values[row * nt + k] = sign * p.samples.values[s * nt + k]! || 0
      row++
    }
  }
  copy(newer, newSamples, 0, 1)
  copy(base, baseSamples, newer.locations.length, -1)
  locationStart[count] = at

  const functionOffset = newer.functions.length
  const mappingOffset = newer.mappings.length
  const shift = (loc: ProfileLocation): ProfileLocation => ({
    ...loc,
    mappingIndex: loc.mappingIndex >= 0 ? loc.mappingIndex + mappingOffset : -1,
    lines: loc.lines.map((line) => ({ ...line, functionIndex: line.functionIndex >= 0 ? line.functionIndex + functionOffset : -1 })),
  })
  const comments = [...new Set([...newer.comments, ...base.comments])]
  return {
    sampleTypes: newer.sampleTypes,
    defaultSampleType: newer.defaultSampleType || base.defaultSampleType,
    samples: { count, locationStart, locationIndex, values },
    locations: [...newer.locations, ...base.locations.map(shift)],
    functions: [...newer.functions, ...base.functions],
    mappings: [...newer.mappings, ...base.mappings],
    dropFrames: newer.dropFrames,
    keepFrames: newer.keepFrames,
    timeNanos: earliest(newer.timeNanos, base.timeNanos),
    durationNanos: newer.durationNanos + base.durationNanos,
    periodType: newer.periodType,
    period: Math.max(newer.period, base.period),
    comments,
    docUrl: newer.docUrl || base.docUrl,
    diffBaseFrom: newSamples.length,
  }
}

/** combineHeaders: the first non-zero time, then any earlier one (a zero after it wins, as in Go). */
function earliest(first: number, second: number): number {
  return first === 0 || second < first ? second : first
}

/** profile.compatible: same period type and the same sample types in the same order. */
function checkCompatible(newer: Profile, base: Profile): void {
  const types = (p: Profile) => p.sampleTypes.map((t) => `${t.type}/${t.unit}`).join(', ')
  const period = (p: Profile) => (p.periodType ? `${p.periodType.type}/${p.periodType.unit}` : '')
  if (types(newer) !== types(base) || period(newer) !== period(base)) {
    const what = (p: Profile) => p.sampleTypes.map((t) => t.type).join(', ') || 'no sample types'
    throw new ProfileUsageError(
      'incompatible-profiles',
      `the two profiles are of different kinds (${what(newer)} vs base ${what(base)}); compare two captures of one kind`,
      [],
    )
  }
}
