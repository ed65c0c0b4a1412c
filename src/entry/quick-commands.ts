/**
 * Commands the quick start serves without oclif, by the words that name them: the module of src/commands/ that
 * defines each, and the names of its spec and runner there. scripts/bundle.mjs builds one small bundle per
 * command from this table (quick-<words>.cjs, see quick.ts), so a run loads only its own command's code;
 * the entry point picks the bundle without loading any. test/unit/parse-argv.test.ts checks the names.
 */
export const QUICK_COMMANDS = {
  doctor: { module: 'doctor', spec: 'DOCTOR_COMMAND', run: 'runDoctor' },
  timeline: { module: 'timeline', spec: 'TIMELINE_COMMAND', run: 'runTimeline' },
  status: { module: 'status', spec: 'STATUS_COMMAND', run: 'runStatus' },
  events: { module: 'events', spec: 'EVENTS_COMMAND', run: 'runEvents' },
  describe: { module: 'describe', spec: 'DESCRIBE_COMMAND', run: 'runDescribe' },
  logs: { module: 'logs', spec: 'LOGS_COMMAND', run: 'runLogs' },
  signer: { module: 'signer', spec: 'SIGNER_COMMAND', run: 'runSigner' },
  collect: { module: 'collect', spec: 'COLLECT_COMMAND', run: 'runCollect' },
  rules: { module: 'rules', spec: 'RULES_COMMAND', run: 'runRules' },
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
} as const

export type QuickCommandId = keyof typeof QUICK_COMMANDS

/** The quick command a line names (two words before one: `rules explain` before `rules`), and the words after it. */
export function quickCommandOf(argv: string[]): { id: QuickCommandId; rest: string[] } | undefined {
  for (const words of [2, 1]) {
    const id = argv.slice(0, words).join(' ')
    if (argv.length >= words && Object.hasOwn(QUICK_COMMANDS, id)) return { id: id as QuickCommandId, rest: argv.slice(words) }
  }
  return undefined
}

/** The file name of a command's quick bundle. */
export const quickBundleName = (id: QuickCommandId): string => `quick-${id.replace(/ /g, '-')}.cjs`
