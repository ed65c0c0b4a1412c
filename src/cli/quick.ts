/**
 * The quick start: a command line that needs no help text and no framework runs here, without
 * loading oclif. On a short run, loading the framework costs more than reading the cluster.
 * bin/run.js comes here for the commands below and falls back to oclif when this answers false.
 */
import type { ExitCode } from '../errors.js'
import { COLLECT_COMMAND, runCollect } from './collect.js'
import { CONFIG_HASH_COMMAND, runConfigHash } from './config-hash.js'
import { DESCRIBE_COMMAND, runDescribe } from './describe.js'
import { DOCTOR_COMMAND, runDoctor } from './doctor.js'
import { EVENTS_COMMAND, runEvents } from './events.js'
import { reportFailure } from './failure.js'
import type { CommandSpec, InputOf } from './flag-spec.js'
import { LOGS_COMMAND, runLogs } from './logs.js'
import { parseCommandLine } from './parse-argv.js'
import type { QuickCommandId } from './quick-commands.js'
import { RULES_COMMAND, runRules } from './rules.js'
import { Session } from './session.js'
import { SIGNER_COMMAND, runSigner } from './signer.js'
import { STATUS_COMMAND, runStatus } from './status.js'
import { TIMELINE_COMMAND, runTimeline } from './timeline.js'

type Runner = (argv: string[], session: Session) => Promise<ExitCode | void> | undefined

/** A command line parsed by the command's spec, then its runner; undefined when oclif must read the line. */
function quick<C extends CommandSpec>(spec: C, run: (input: InputOf<C>, session: Session) => Promise<ExitCode | void>): Runner {
  return (argv, session) => {
    const input = parseCommandLine(argv, spec)
    return input && run(input, session)
  }
}

/** Every command served here, by the names in quick-commands.ts (the type keeps the two lists the same). */
const QUICK: Record<QuickCommandId, Runner> = {
  doctor: quick(DOCTOR_COMMAND, runDoctor),
  timeline: quick(TIMELINE_COMMAND, runTimeline),
  status: quick(STATUS_COMMAND, runStatus),
  events: quick(EVENTS_COMMAND, runEvents),
  describe: quick(DESCRIBE_COMMAND, runDescribe),
  logs: quick(LOGS_COMMAND, runLogs),
  signer: quick(SIGNER_COMMAND, runSigner),
  collect: quick(COLLECT_COMMAND, runCollect),
  rules: quick(RULES_COMMAND, runRules),
  'config-hash': quick(CONFIG_HASH_COMMAND, runConfigHash),
}

/** `version` comes from the entry point (bin/run.js, src/sea-loader.ts), which knows where package.json is. */
export async function runQuick(argv: string[], version: string): Promise<boolean> {
  const [id, ...rest] = argv
  if (!Object.hasOwn(QUICK, id)) return false
  const session = new Session(version)
  const running = QUICK[id as QuickCommandId](rest, session)
  if (!running) return false
  try {
    const code = await running
    if (code !== undefined) process.exitCode = code
  } catch (error) {
    process.exitCode = reportFailure(error as Error, session.debugEnabled)
  } finally {
    session.close()
  }
  return true
}
