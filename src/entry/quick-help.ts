import { readFileSync } from 'node:fs'
import { userAgent } from '../util/user-agent.js'

/** Stands for the runtime's user agent in the stored help texts (the VERSION section names the Node that runs). */
export const USER_AGENT_MARK = '\u0000user-agent\u0000'

/** The width oclif wraps help at: OCLIF_COLUMNS, else the terminal's, else 80. */
const OCLIF_WIDTH = 80

/**
 * The help a plain help line asks for (`--help`, `-h`, `help`, `CMD --help`, `help CMD`), as oclif renders
 * it off a terminal, from the texts scripts/gen-help.mjs stored at build time (one per command and topic);
 * undefined sends the line to oclif: another width, colour, or a line with anything else in it.
 */
export function storedHelp(argv: string[], file: string, version: string): string | undefined {
  const key = helpKey(argv)
  if (key === undefined || process.stdout.isTTY || process.env.FORCE_COLOR) return undefined
  const columns = Number.parseInt(process.env.OCLIF_COLUMNS ?? '', 10)
  if (columns && columns !== OCLIF_WIDTH) return undefined
  let stored: StoredHelp
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as StoredHelp
  } catch {
    return undefined
  }
  if (argv[0] === 'help' && !stored.helpCommand) return undefined
  return Object.hasOwn(stored.texts, key) ? stored.texts[key].replaceAll(USER_AGENT_MARK, userAgent(version)) : undefined
}

/** What scripts/gen-help.mjs writes: the texts by command or topic ('' for the top level). */
export interface StoredHelp {
  /** Whether `help CMD` is a command here (the help plugin); without it, oclif answers such a line with an error. */
  helpCommand: boolean
  texts: Record<string, string>
}

/** The command or topic whose help a line asks for ('' for the top level), or undefined for any other line. */
export function helpKey(argv: string[]): string | undefined {
  const last = argv.at(-1)
  const words = argv[0] === 'help' ? argv.slice(1) : last === '--help' || last === '-h' ? argv.slice(0, -1) : argv.length === 0 ? [] : undefined
  return words?.every((word) => /^[a-z][a-z0-9-]*$/.test(word)) ? words.join(' ') : undefined
}
