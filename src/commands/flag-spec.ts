/**
 * Flags described as data, with no framework behind them. oclif builds its flags from these
 * (src/entry/oclif/oclif-flags.ts) and the quick start parses argv with them (parse-argv.ts): one
 * definition, two readers.
 */
import { checkedLabelSelector } from '../snapshot/label-selector.js'
import { parseDuration } from '../util/duration.js'

export type FlagSpec =
  | { type: 'boolean'; description: string; char?: string; helpGroup?: string }
  | {
      type: 'string'
      description: string
      char?: string
      helpGroup?: string
      options?: readonly string[]
      /** Options that carry a value after "=", as kubectl's `-o jsonpath=TEMPLATE`. */
      templated?: readonly string[]
      default?: string
      multiple?: boolean
      required?: boolean
      /**
       * The value the runner takes, made from the text where the command line is parsed (a duration in milliseconds,
       * a checked label selector): a bad value is an input error before anything is read, and no runner parses it.
       */
      parse?: (raw: string, flag: string) => unknown
    }
  | { type: 'integer'; description: string; char?: string; helpGroup?: string; default?: number; min?: number; max?: number }

export type FlagSpecs = Record<string, FlagSpec>

/** A positional argument; a command's arguments are read in the order they are declared. */
export interface ArgSpec {
  description: string
  required?: boolean
  options?: readonly string[]
}

export type ArgSpecs = Record<string, ArgSpec>

/**
 * One command, defined once: its help text, its arguments and every flag it accepts (the global and
 * kube flags included). The oclif class (help, manifest, README, completion) and the quick start both read it,
 * and the input its runner takes is derived from it (InputOf).
 */
export interface CommandSpec {
  /** One line: the command's row in the command list, and the first line of its help. */
  summary: string
  /** More help under the summary, when one line is not enough. */
  description?: string
  /** Command lines a user can copy; `<%= config.bin %>` is the binary's name. The first is shown with a missing argument. */
  examples: readonly string[]
  args: ArgSpecs
  flags: FlagSpecs
  /** Words after the command name that name a subcommand (config-hash diff): such lines are not this command's. */
  subcommands?: readonly string[]
}

type TemplatedOf<S> = S extends { templated: readonly (infer T extends string)[] } ? `${T}=${string}` : never
type OptionOf<S> = S extends { options: readonly (infer O extends string)[] } ? O | TemplatedOf<S> : string

/** Whether a string flag takes this value: one of its options, or a templated option with its value. */
export function takesValue(spec: { options?: readonly string[]; templated?: readonly string[] }, raw: string): boolean {
  if (!spec.options) return true
  return spec.options.includes(raw) || (spec.templated ?? []).some((name) => raw.startsWith(`${name}=`))
}

/** The values a string flag takes, as help shows them: text|json|jsonpath=TEMPLATE. */
export const choicesOf = (spec: { options?: readonly string[]; templated?: readonly string[] }): string[] => [
  ...(spec.options ?? []),
  ...(spec.templated ?? []).map((name) => `${name}=TEMPLATE`),
]

/** The value a flag has after parsing, by its spec (a flag with a default always has a value). */
export type FlagValueOf<S> = S extends { type: 'boolean' }
  ? boolean
  : S extends { parse: (raw: string, flag: string) => infer T }
    ? S extends { multiple: true }
      ? T[] | undefined
      : S extends { default: string } | { required: true }
        ? T
        : T | undefined
    : S extends { type: 'integer'; default: number }
      ? number
      : S extends { type: 'integer' }
        ? number | undefined
        : S extends { multiple: true }
          ? string[] | undefined
          : S extends { default: string } | { required: true }
            ? OptionOf<S>
            : OptionOf<S> | undefined

export type ArgValueOf<S> = S extends { required: true } ? OptionOf<S> : OptionOf<S> | undefined

/** What a command's runner receives: every flag and argument by name, typed by the spec. */
export type InputOf<C extends CommandSpec> = { [K in keyof C['flags']]: FlagValueOf<C['flags'][K]> } & {
  [K in keyof C['args']]: ArgValueOf<C['args'][K]>
}

/**
 * The parsed command line with each flag that has its own `parse` turned into its value (defaults included): both
 * readers of a command line (the quick start and oclif) hand their runner what this returns.
 */
export function flagValues<C extends CommandSpec>(command: C, parsed: Record<string, unknown>): InputOf<C> {
  const values: Record<string, unknown> = { ...parsed }
  for (const [name, spec] of Object.entries(command.flags)) {
    const raw = parsed[name]
    if (spec.type !== 'string' || !spec.parse || raw === undefined) continue
    const parse = spec.parse
    values[name] = Array.isArray(raw) ? raw.map((item) => parse(String(item), `--${name}`)) : parse(String(raw), `--${name}`)
  }
  return values as InputOf<C>
}

/** Keeps a spec's literal types (flag types, options, defaults) so InputOf can read them. */
export const defineCommand = <const C extends CommandSpec>(spec: C): C => spec

export type OutputFormat = 'text' | 'wide' | 'name' | 'json' | 'yaml' | 'markdown' | 'junit'

/** `-o` for a command that supports the given formats. */
export const outputSpec = <const F extends OutputFormat>(formats: readonly F[]) =>
  ({ type: 'string', char: 'o', description: 'output format', options: formats, default: 'text' }) as const satisfies FlagSpec

/** `-o` that also takes kubectl's templates (`-o jsonpath=TEMPLATE`). */
export const templatedOutputSpec = <const F extends OutputFormat, const T extends string>(formats: readonly F[], templated: readonly T[]) =>
  ({ ...outputSpec(formats), templated }) as const satisfies FlagSpec

export const GLOBAL_FLAGS = {
  'no-color': { type: 'boolean', description: 'disable colour (also off with NO_COLOR or when stdout is not a terminal)', helpGroup: 'GLOBAL' },
  debug: { type: 'boolean', description: 'print request counts, timings and stack traces', helpGroup: 'GLOBAL' },
} satisfies FlagSpecs

/** Flags kubectl would own; kubectl passes none to a plugin, so they come after the command name. */
export const KUBE_FLAGS = {
  kubeconfig: { type: 'string', description: 'path to the kubeconfig file (default: KUBECONFIG, then ~/.kube/config)', helpGroup: 'KUBE' },
  context: { type: 'string', description: 'kubeconfig context to use', helpGroup: 'KUBE' },
  namespace: { type: 'string', char: 'n', description: 'namespace (default: the context namespace)', helpGroup: 'KUBE' },
  'request-timeout': {
    type: 'string',
    description: 'timeout of each API request (e.g. 10s, 1m; 0 = none)',
    default: '30s',
    helpGroup: 'KUBE',
    parse: parseDuration,
  },
} satisfies FlagSpecs

/** Flags choosing which nodes a command looks at; NAME is the command's argument. */
export const SCOPE_FLAGS = {
  set: { type: 'string', description: 'every node of this ChainNodeSet' },
  all: { type: 'boolean', description: 'every node in the namespace (what -n NAMESPACE alone names)' },
  'all-namespaces': { type: 'boolean', char: 'A', description: 'every node in every namespace' },
  selector: {
    type: 'string',
    char: 'l',
    description: 'only nodes whose labels match, as kubectl -l (e.g. validator=true; not with a NAME); alone, looks in the namespace',
    // Checked where the line is parsed: a bad selector is an input error, whatever the cluster says.
    parse: checkedLabelSelector,
  },
} satisfies FlagSpecs

/** Commands that read nodes: live from one or more clusters, or offline from a bundle. */
export const SNAPSHOT_FLAGS = {
  bundle: { type: 'string', description: 'read from a bundle written by `chainnode collect` instead of the cluster' },
  'no-redact': { type: 'boolean', description: 'do not mask tokens, keys and mnemonics (they are masked by default)' },
  tail: { type: 'integer', description: 'log lines to read per container (-1: all)', default: 500, min: -1 },
} satisfies FlagSpecs

/** The active probes doctor and signer make through port-forwards, and how long the signer gate check waits. */
export const PROBE_FLAGS = {
  'no-probe': {
    type: 'boolean',
    description:
      "skip the active probes, all through port-forwards (the node's RPC on 26657 and node-utils, the remote signer's 8080 and 26659 gate), and report what the cluster records",
  },
  'gate-timeout': {
    type: 'string',
    description: 'how long the signer gate check waits for data (the gate itself waits 25s)',
    default: '25s',
    parse: parseDuration,
  },
} satisfies FlagSpecs

/** The chain probe's second reading (doctor, timeline and collect ask the nodes' RPC). */
/** --utc: the one time format of text reports (RFC 3339 to the second) in UTC instead of the local zone. */
export const UTC_FLAG = {
  utc: { type: 'boolean', description: 'print times in UTC instead of the local time zone' },
} satisfies FlagSpecs

export const PROBE_WINDOW_FLAG = {
  'probe-window': {
    type: 'string',
    description: 'when the last block is old, read the height again this long after the first reading',
    default: '3s',
    parse: parseDuration,
  },
  'signing-window': {
    type: 'integer',
    description: "validators: count their signatures in this many of the chain's last commits (read once per chain; 0: do not count)",
    default: 100,
    min: 0,
    max: 1000,
  },
} satisfies FlagSpecs

/** A kubectl-style listing (status, events): no header line, and -w to keep printing what changes. */
export const LISTING_FLAGS = {
  'no-headers': { type: 'boolean', description: 'print no header line' },
  watch: { type: 'boolean', char: 'w', description: 'after the listing, print each row that appears or changes (live only; polls every 2s)' },
} satisfies FlagSpecs

/** The ChainNode a command is about. */
export const NODE_ARG = { name: { description: 'ChainNode name' } } satisfies ArgSpecs
export const REQUIRED_NODE_ARG = { name: { description: 'ChainNode name', required: true } } satisfies ArgSpecs
