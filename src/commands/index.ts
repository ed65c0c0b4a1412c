/**
 * Every command, once, by the words that name it: the module of src/commands/ that defines it, and the names
 * of its spec (defineCommand: help, arguments, flags) and of its runner there. Names, not imports: the entry
 * point (src/entry/main.ts) reads this table to pick a command without loading any command's code. From it
 * scripts/bundle.mjs builds one quick bundle per command (src/entry/quick.ts) and src/entry/command-index.ts
 * makes oclif's command classes (help, manifest, README, completion). The types below check every name.
 */
import type { CommandSpec } from './flag-spec.js'
import type { Session } from './session.js'
import type { ExitCode } from '../util/errors.js'

/** The modules that define commands, by file name (src/entry/command-index.ts imports each). */
export interface CommandModules {
  collect: typeof import('./collect.js')
  'config-hash': typeof import('./config-hash.js')
  describe: typeof import('./describe.js')
  diff: typeof import('./diff.js')
  doctor: typeof import('./doctor.js')
  events: typeof import('./events.js')
  logs: typeof import('./logs.js')
  pprof: typeof import('./pprof.js')
  redact: typeof import('./redact.js')
  rules: typeof import('./rules.js')
  serve: typeof import('./serve.js')
  signer: typeof import('./signer.js')
  status: typeof import('./status.js')
  timeline: typeof import('./timeline.js')
  version: typeof import('./version.js')
}

type ExportsOf<M extends keyof CommandModules, T> = { [K in keyof CommandModules[M]]: CommandModules[M][K] extends T ? K : never }[keyof CommandModules[M]]

/** A command's row: a spec and a runner that its module exports. */
export type CommandEntry = {
  [M in keyof CommandModules]: {
    module: M
    spec: ExportsOf<M, CommandSpec>
    run: ExportsOf<M, (input: never, session: Session) => Promise<ExitCode>>
  }
}[keyof CommandModules]

/** `chainnode --help` lists them by name (oclif); this order is what an on-call engineer reaches for first. */
export const COMMANDS = {
  doctor: { module: 'doctor', spec: 'DOCTOR_COMMAND', run: 'runDoctor' },
  timeline: { module: 'timeline', spec: 'TIMELINE_COMMAND', run: 'runTimeline' },
  status: { module: 'status', spec: 'STATUS_COMMAND', run: 'runStatus' },
  events: { module: 'events', spec: 'EVENTS_COMMAND', run: 'runEvents' },
  describe: { module: 'describe', spec: 'DESCRIBE_COMMAND', run: 'runDescribe' },
  logs: { module: 'logs', spec: 'LOGS_COMMAND', run: 'runLogs' },
  signer: { module: 'signer', spec: 'SIGNER_COMMAND', run: 'runSigner' },
  collect: { module: 'collect', spec: 'COLLECT_COMMAND', run: 'runCollect' },
  redact: { module: 'redact', spec: 'REDACT_COMMAND', run: 'runRedact' },
  diff: { module: 'diff', spec: 'DIFF_COMMAND', run: 'runDiff' },
  rules: { module: 'rules', spec: 'RULES_COMMAND', run: 'runRulesList' },
  'rules explain': { module: 'rules', spec: 'RULES_EXPLAIN_COMMAND', run: 'runRulesExplain' },
  'config-hash': { module: 'config-hash', spec: 'CONFIG_HASH_COMMAND', run: 'runConfigHash' },
  'config-hash diff': { module: 'config-hash', spec: 'CONFIG_HASH_DIFF_COMMAND', run: 'runConfigHashDiff' },
  serve: { module: 'serve', spec: 'SERVE_COMMAND', run: 'runServe' },
  version: { module: 'version', spec: 'VERSION_COMMAND', run: 'runVersion' },
  'pprof top': { module: 'pprof', spec: 'PPROF_TOP_COMMAND', run: 'runPprofTop' },
  'pprof flame': { module: 'pprof', spec: 'PPROF_FLAME_COMMAND', run: 'runPprofFlame' },
  'pprof heap': { module: 'pprof', spec: 'PPROF_HEAP_COMMAND', run: 'runPprofHeap' },
  'pprof profile': { module: 'pprof', spec: 'PPROF_PROFILE_COMMAND', run: 'runPprofProfile' },
  'pprof trace': { module: 'pprof', spec: 'PPROF_TRACE_COMMAND', run: 'runPprofTrace' },
  'pprof goroutine': { module: 'pprof', spec: 'PPROF_GOROUTINE_COMMAND', run: 'runPprofGoroutine' },
  'pprof allocs': { module: 'pprof', spec: 'PPROF_ALLOCS_COMMAND', run: 'runPprofAllocs' },
  'pprof block': { module: 'pprof', spec: 'PPROF_BLOCK_COMMAND', run: 'runPprofBlock' },
  'pprof mutex': { module: 'pprof', spec: 'PPROF_MUTEX_COMMAND', run: 'runPprofMutex' },
} as const satisfies Record<string, CommandEntry>

export type CommandId = keyof typeof COMMANDS
