/**
 * The quick start: a command line that needs no help text and no framework runs here, without
 * loading oclif. On a short run, loading the framework costs more than reading the cluster.
 * bin/run.js comes here for the commands below and falls back to oclif when this answers false.
 */
import { DOCTOR_COMMAND, runDoctor, type DoctorInput } from './doctor.js'
import { reportFailure } from './failure.js'
import { parseArgv } from './parse-argv.js'
import { Session } from './session.js'
import { TIMELINE_COMMAND, runTimeline, type TimelineInput } from './timeline.js'

/** Commands served here, by the names in quick-commands.ts. */
const QUICK = {
  doctor: { ...DOCTOR_COMMAND, run: runDoctor },
  timeline: { ...TIMELINE_COMMAND, run: runTimeline },
}

/** `version` comes from the entry point (bin/run.js, src/sea-loader.ts), which knows where package.json is. */
export async function runQuick(argv: string[], version: string): Promise<boolean> {
  const [id, ...rest] = argv
  const command = QUICK[id as keyof typeof QUICK]
  const parsed = command && parseArgv(rest, command.flags, command.args)
  if (!parsed) return false
  const session = new Session(version)
  try {
    process.exitCode = await command.run({ ...(parsed.flags as unknown as DoctorInput & TimelineInput), name: parsed.args.name }, session)
  } catch (error) {
    process.exitCode = reportFailure(error as Error, session.debugEnabled)
  } finally {
    session.close()
  }
  return true
}
