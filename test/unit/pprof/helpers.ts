import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TopOptions } from '../../../src/pprof/top.js'

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/pprof')
export const PROFGEN = join(dirname(fileURLToPath(import.meta.url)), '../../profgen')

export interface FixtureCase {
  profile: string
  args: string[]
  output: string
}

export interface Manifest {
  goVersion: string
  env: string[]
  cases: FixtureCase[]
}

export function manifest(): Manifest {
  return JSON.parse(readFileSync(join(FIXTURES, 'cases.json'), 'utf8')) as Manifest
}

export function fixture(name: string): Buffer {
  return readFileSync(join(FIXTURES, name))
}

/** Maps the `go tool pprof` flags the fixtures use to TopOptions. */
export function optionsFromArgs(args: readonly string[]): TopOptions {
  const options: TopOptions = {}
  for (const arg of args) {
    const [flag, value = ''] = arg.replace(/^-+/, '').split('=') as [string, string?]
    switch (flag) {
      case 'nodefraction':
        options.nodeFraction = Number(value)
        break
      case 'edgefraction':
        options.edgeFraction = Number(value)
        break
      case 'nodecount':
        options.nodeCount = Number(value)
        break
      case 'sample_index':
        options.sampleIndex = value
        break
      case 'cum':
        options.cum = true
        break
      default:
        throw new Error(`no TopOptions mapping for pprof flag ${arg}`)
    }
  }
  return options
}

export interface TopText {
  header: string[]
  rows: TopTextRow[]
}

export interface TopTextRow {
  flat: string
  flatPct: string
  sumPct: string
  cum: string
  cumPct: string
  name: string
  inline: string
  line: string
}

const ROW = /^ {0,9}(\S+) +(\S+%) +(\S+%) +(\S+) +(\S+%) {2}(.*?)( \((?:inline|partial-inline)\))?$/

/** Splits `go tool pprof -top` text into header lines and parsed rows. */
export function parseTop(text: string): TopText {
  const lines = text.replace(/\n$/, '').split('\n')
  const columns = lines.findIndex((l) => l === '      flat  flat%   sum%        cum   cum%')
  if (columns < 0) throw new Error(`no column header in:\n${text}`)
  const rows = lines.slice(columns + 1).map((line) => {
    const m = ROW.exec(line)
    if (!m) throw new Error(`cannot parse pprof row: ${JSON.stringify(line)}`)
    return {
      flat: m[1]!,
      flatPct: m[2]!,
      sumPct: m[3]!,
      cum: m[4]!,
      cumPct: m[5]!,
      name: m[6]!,
      inline: (m[7] ?? '').trim().replace(/[()]/g, ''),
      line,
    }
  })
  return { header: lines.slice(0, columns + 1), rows }
}

/**
 * pprof sorts nodes by |flat| then name and stops there: distinct nodes
 * with the same printed name and flat value (unnamed functions of one
 * binary) come out in map order. Sorting such runs makes texts comparable.
 */
export function canonicalTop(text: string): string {
  const { header, rows } = parseTop(text)
  const out: string[] = []
  for (let i = 0; i < rows.length;) {
    let j = i + 1
    while (j < rows.length && rows[j]!.flat === rows[i]!.flat && rows[j]!.name === rows[i]!.name) j++
    out.push(
      ...rows
        .slice(i, j)
        .map((r) => r.line)
        .sort(),
    )
    i = j
  }
  return [...header, ...out].join('\n') + '\n'
}
