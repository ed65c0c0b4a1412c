/**
 * A decoded pprof profile (profile.proto), normalised for analysis:
 * strings are resolved, every integer is a plain `number` (int64 values
 * beyond ±2^53 lose precision; addresses above 2^53 are approximate), and
 * sample stacks are stored column-wise in typed arrays because real CPU
 * profiles carry millions of frames.
 */
export interface Profile {
  sampleTypes: ValueType[]
  /** Empty when the profile does not name one (Go heap profiles). */
  defaultSampleType: string
  samples: SampleTable
  locations: ProfileLocation[]
  functions: ProfileFunction[]
  mappings: ProfileMapping[]
  /** Regexps from the profile asking pprof to drop frames (rare outside C++). */
  dropFrames: string
  keepFrames: string
  timeNanos: number
  durationNanos: number
  periodType: ValueType | undefined
  period: number
  comments: string[]
  docUrl: string
  /** Set on a -diff_base merge (diff.ts): samples from this index on are the base's, scaled by -1. */
  diffBaseFrom?: number
}

export interface ValueType {
  type: string
  unit: string
}

/**
 * Samples in columns. Stack of sample `i` is
 * `locationIndex[locationStart[i] .. locationStart[i + 1])`, leaf first,
 * each entry an index into `Profile.locations` (not a location id).
 * Its values are `values[i * sampleTypes.length + k]`.
 * Sample labels are not decoded: nothing here needs them yet.
 */
export interface SampleTable {
  count: number
  locationStart: Uint32Array
  locationIndex: Uint32Array
  values: Float64Array
}

export interface ProfileLocation {
  id: number
  /** Index into `Profile.mappings`, or -1 when the location has none. */
  mappingIndex: number
  address: number
  /** Innermost (inlined) frame first, like profile.proto. */
  lines: ProfileLine[]
  isFolded: boolean
}

export interface ProfileLine {
  /** Index into `Profile.functions`, or -1 when the line names no function. */
  functionIndex: number
  line: number
  column: number
}

export interface ProfileFunction {
  id: number
  name: string
  systemName: string
  filename: string
  startLine: number
}

export interface ProfileMapping {
  id: number
  start: number
  limit: number
  offset: number
  file: string
  buildId: string
  hasFunctions: boolean
  hasFilenames: boolean
  hasLineNumbers: boolean
  hasInlineFrames: boolean
}
