import { closestTo } from '../util/suggest.js'

/**
 * oclif answers a mistyped command with its own multi-line style; the tool answers it like every other
 * input error, on one line with what to do, and a suggestion the way kubectl makes one.
 */
export function unknownCommandLine(id: string, commandIds: string[]): string {
  const typed = id.replace(/:/g, ' ')
  const known = commandIds.map((c) => c.replace(/:/g, ' ')).filter((c) => !c.startsWith('__'))
  const near = closestTo(typed, known)
  const hint = near ? `did you mean "${near}"? See chainnode --help` : 'see chainnode --help for the commands'
  return `error: unknown command "${typed}"; ${hint}\n`
}

/** The name oclif could not find in its "command X not found" error, if that is what this is. */
export function notFoundCommand(error: unknown): string | undefined {
  return /^command (\S+) not found/.exec((error as Error)?.message ?? '')?.[1]
}

/** What the manifest says of a command's flags: whether each (by --name and -char) takes a value. */
export interface ManifestCommands {
  [id: string]: { flags?: Record<string, { char?: string; type?: string }> }
}

/**
 * `chainnode -n NS status`: a flag before the command's name (kubectl passes the plugin its words as typed, and
 * ours are read after the command). The line as it should be typed, or undefined when no command is on it.
 */
export function flagsAfterCommand(argv: readonly string[], commands: ManifestCommands): string | undefined {
  const takesValue = new Set<string>()
  for (const command of Object.values(commands))
    for (const [name, flag] of Object.entries(command.flags ?? {})) {
      if (flag.type !== 'option') continue
      takesValue.add(`--${name}`)
      if (flag.char) takesValue.add(`-${flag.char}`)
    }
  const ids = new Set(Object.keys(commands).map((id) => id.replace(/:/g, ' ')))
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]
    if (token.startsWith('-')) {
      // -n NS: the next word is the flag's value, not a command (a namespace may be called "status").
      if (!token.includes('=') && takesValue.has(token)) i++
      continue
    }
    const words = [2, 1].find((n) => ids.has(argv.slice(i, i + n).join(' ')))
    if (words === undefined || i === 0) return undefined
    const line = [...argv.slice(i, i + words), ...argv.slice(i + words), ...argv.slice(0, i)]
    return `chainnode ${line.map(shellWord).join(' ')}`
  }
  return undefined
}

/** A word as a shell reads it back: quoted when it holds anything but plain characters. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)
