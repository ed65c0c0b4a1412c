/**
 * The quick start's view of the command registry (src/commands/index.ts): which command a line names, and
 * the file of its quick bundle. scripts/bundle.mjs builds one small bundle per command of the registry
 * (quick-<words>.cjs, see quick.ts), so a run loads only its own command's code; the entry point picks the
 * bundle from the registry's names without loading any.
 */
import { COMMANDS, type CommandId } from '../commands/index.js'

/** The command a line names (two words before one: `rules explain` before `rules`), and the words after it. */
export function quickCommandOf(argv: string[]): { id: CommandId; rest: string[] } | undefined {
  for (const words of [2, 1]) {
    const id = argv.slice(0, words).join(' ')
    if (argv.length >= words && Object.hasOwn(COMMANDS, id)) return { id: id as CommandId, rest: argv.slice(words) }
  }
  return undefined
}

/** The file name of a command's quick bundle. */
export const quickBundleName = (id: CommandId): string => `quick-${id.replace(/ /g, '-')}.cjs`
