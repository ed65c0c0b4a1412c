/**
 * Flags described as data, with no framework behind them. oclif builds its flags from these
 * (src/base/oclif-flags.ts) and the quick start parses argv with them (parse-argv.ts): one
 * definition, two readers.
 */
export type FlagSpec =
  | { type: 'boolean'; description: string; char?: string; helpGroup?: string }
  | {
      type: 'string'
      description: string
      char?: string
      helpGroup?: string
      options?: readonly string[]
      default?: string
      multiple?: boolean
      required?: boolean
    }
  | { type: 'integer'; description: string; char?: string; helpGroup?: string; default?: number; min?: number; max?: number }

export type FlagSpecs = Record<string, FlagSpec>

export type OutputFormat = 'text' | 'wide' | 'json' | 'yaml' | 'markdown' | 'junit'

/** `-o` for a command that supports the given formats. */
export const outputSpec = (formats: OutputFormat[]) =>
  ({ type: 'string', char: 'o', description: 'output format', options: formats, default: 'text' }) satisfies FlagSpec

export const GLOBAL_FLAGS = {
  'no-color': { type: 'boolean', description: 'disable colour (also off with NO_COLOR or when stdout is not a terminal)', helpGroup: 'GLOBAL' },
  debug: { type: 'boolean', description: 'print request counts, timings and stack traces', helpGroup: 'GLOBAL' },
} satisfies FlagSpecs

/** Flags kubectl would own; kubectl passes none to a plugin, so they come after the command name. */
export const KUBE_FLAGS = {
  kubeconfig: { type: 'string', description: 'path to the kubeconfig file (default: KUBECONFIG, then ~/.kube/config)', helpGroup: 'KUBE' },
  context: { type: 'string', description: 'kubeconfig context to use', helpGroup: 'KUBE' },
  namespace: { type: 'string', char: 'n', description: 'namespace (default: the context namespace)', helpGroup: 'KUBE' },
  'request-timeout': { type: 'string', description: 'timeout of each API request (e.g. 10s, 1m; 0 = none)', default: '30s', helpGroup: 'KUBE' },
} satisfies FlagSpecs

/** Flags choosing which nodes a command looks at; NAME is the command's argument. */
export const SCOPE_FLAGS = {
  set: { type: 'string', description: 'every node of this ChainNodeSet' },
  all: { type: 'boolean', description: 'every node in the namespace' },
  'all-namespaces': { type: 'boolean', char: 'A', description: 'every node in every namespace' },
  selector: { type: 'string', char: 'l', description: 'only nodes whose labels match, as kubectl -l (e.g. validator=true); alone, looks in the namespace' },
} satisfies FlagSpecs

/** Commands that read nodes: live from one or more clusters, or offline from a bundle. */
export const SNAPSHOT_FLAGS = {
  bundle: { type: 'string', description: 'read from a bundle written by `chainnode collect` instead of the cluster' },
  'no-redact': { type: 'boolean', description: 'do not mask tokens, keys and mnemonics (they are masked by default)' },
  tail: { type: 'integer', description: 'log lines to read per container (-1: all)', default: 500, min: -1 },
} satisfies FlagSpecs
