import { ProfileUsageError } from './errors.js'
import type { Profile } from './types.js'
import { compileGoRegexp, type GoRegexp } from '../util/go-regexp.js'

/*
 * `go tool pprof -focus RE -ignore RE` (profile.FilterSamplesByName): a
 * location matches when one of its lines' function name or file name, or
 * its mapping's file, matches; a sample is kept when one of its locations
 * matches focus (or no focus is given) and none matches ignore. pprof
 * applies the filter after it has taken the total, so percentages stay
 * those of the whole profile.
 */

export interface SampleFilter {
  focus?: string
  ignore?: string
}

export interface FilteredSamples {
  /** 1 for a sample kept; undefined when no filter is given. */
  keep: Uint8Array | undefined
  /** pprof's "Active filters:" entries, e.g. "focus=leak". */
  active: string[]
  /** The filters that matched no location (pprof warns "no matches found for regexp"). */
  unmatched: string[]
}

export function filterSamples(profile: Profile, filter: SampleFilter): FilteredSamples {
  const focus = compile('focus', filter.focus)
  const ignore = compile('ignore', filter.ignore)
  const active = [filter.focus ? `focus=${filter.focus}` : '', filter.ignore ? `ignore=${filter.ignore}` : ''].filter((f) => f !== '')
  if (focus === undefined && ignore === undefined) return { keep: undefined, active, unmatched: [] }
  // Per location: 0 neither, 1 focused, 2 ignored.
  const mark = new Uint8Array(profile.locations.length)
  let focusMatched = focus === undefined
  let ignoreMatched = ignore === undefined
  profile.locations.forEach((loc, l) => {
    const mapping = loc.mappingIndex >= 0 ? profile.mappings[loc.mappingIndex]!.file : undefined
    const matches = (re: GoRegexp): boolean =>
      loc.lines.some((line) => {
        const fn = line.functionIndex >= 0 ? profile.functions[line.functionIndex] : undefined
        return fn !== undefined && (re.test(fn.name) || re.test(fn.filename))
      }) ||
      (mapping !== undefined && re.test(mapping))
    if (ignore !== undefined && matches(ignore)) {
      ignoreMatched = true
      mark[l] = 2
    } else if (focus === undefined || matches(focus)) {
      focusMatched = true
      mark[l] = 1
    }
  })
  const { count, locationStart, locationIndex } = profile.samples
  const keep = new Uint8Array(count)
  for (let s = 0; s < count; s++) {
    let focused = 0
    for (let i = locationStart[s]!; i < locationStart[s + 1]!; i++) {
      const m = mark[locationIndex[i]!]!
      if (m === 2) {
        focused = 0
        break
      }
      if (m === 1) focused = 1
    }
    keep[s] = focused
  }
  const unmatched = [!focusMatched ? 'focus' : '', !ignoreMatched ? 'ignore' : ''].filter((f) => f !== '')
  return { keep, active, unmatched }
}

function compile(name: string, source: string | undefined): GoRegexp | undefined {
  if (source === undefined || source === '') return undefined
  try {
    return compileGoRegexp(source)
  } catch (error) {
    throw new ProfileUsageError('bad-regexp', `--${name} "${source}" is not a regular expression: ${(error as Error).message}`, [])
  }
}
