import { takesValue, type CommandSpec, type FlagSpec } from '../commands/flag-spec.js'

export type FlagValue = boolean | string | number | string[]

export interface ParsedArgv {
  args: Record<string, string | undefined>
  flags: Record<string, FlagValue | undefined>
}

/** A command line's flags and arguments by name, as text checked against the spec (flagValues makes the values); undefined hands it to oclif. */
export function parseCommandLine(argv: string[], command: CommandSpec): ParsedLine | undefined {
  if (command.subcommands?.includes(argv[0])) return undefined
  const parsed = parseArgv(argv, command)
  return parsed && { ...parsed.flags, ...parsed.args }
}

/** Flags and arguments by name, before flagValues. */
export type ParsedLine = Record<string, FlagValue | undefined> & { 'no-color'?: boolean; debug?: boolean }

/**
 * Parse the plain command lines people type (`doctor NAME -n NS -o json`) without loading oclif.
 * Anything less plain (help, an unknown or repeated flag, a bad value, `--`, a positional argument
 * after a multiple flag, which oclif reads greedily) answers undefined: oclif then parses the line
 * and gives its own help or error, so both paths accept and reject the same input.
 */
export function parseArgv(argv: string[], command: CommandSpec): ParsedArgv | undefined {
  const specs = command.flags
  const argSpecs = Object.entries(command.args)
  const byChar = new Map(Object.entries(specs).flatMap(([name, spec]) => (spec.char ? [[spec.char, name] as const] : [])))
  const flags: ParsedArgv['flags'] = {}
  const positional: string[] = []
  const seen = new Set<string>()
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]
    if (!token.startsWith('-') || token === '-') {
      positional.push(token)
      continue
    }
    const long = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/s.exec(token)
    const short = /^-([a-zA-Z])(.*)$/s.exec(token)
    const name = long ? long[1] : short ? byChar.get(short[1]) : undefined
    const spec = name ? specs[name] : undefined
    if (!name || !spec) return undefined
    let inline = long ? long[2] : short![2] || undefined
    if (short && inline?.startsWith('=')) inline = inline.slice(1)
    if (spec.type === 'boolean') {
      if (inline !== undefined) return undefined
      flags[name] = true
      continue
    }
    const raw = inline ?? argv[++i]
    if (raw === undefined || (inline === undefined && raw.startsWith('-'))) return undefined
    const value = valueOf(spec, raw)
    if (value === undefined) return undefined
    if (spec.type === 'string' && spec.multiple) {
      const next = argv[i + 1]
      if (next !== undefined && !next.startsWith('-')) return undefined
      flags[name] = [...((flags[name] as string[] | undefined) ?? []), value as string]
    } else {
      if (seen.has(name)) return undefined
      flags[name] = value
    }
    seen.add(name)
  }
  if (positional.length > argSpecs.length) return undefined
  // A missing argument or a value it does not take: oclif says so with the command's example.
  if (
    argSpecs.some(
      ([, spec], i) => (spec.required && positional[i] === undefined) || (spec.options && positional[i] !== undefined && !spec.options.includes(positional[i])),
    )
  )
    return undefined
  for (const [name, spec] of Object.entries(specs)) {
    if (flags[name] !== undefined) continue
    if (spec.type === 'boolean') flags[name] = false
    else if (spec.type === 'string' && spec.required) return undefined
    else if (spec.default !== undefined) flags[name] = spec.default
  }
  return { args: Object.fromEntries(argSpecs.map(([name], i) => [name, positional[i]])), flags }
}

function valueOf(spec: Exclude<FlagSpec, { type: 'boolean' }>, raw: string): string | number | undefined {
  if (spec.type === 'string') return takesValue(spec, raw) ? raw : undefined
  if (!/^-?\d+$/.test(raw)) return undefined
  const n = Number(raw)
  return (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max) ? n : undefined
}
