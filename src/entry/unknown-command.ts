/**
 * oclif answers a mistyped command with its own multi-line style; the tool answers it like every other
 * input error, on one line with what to do, and a suggestion the way kubectl makes one.
 */
export function unknownCommandLine(id: string, commandIds: string[]): string {
  const typed = id.replace(/:/g, ' ')
  const known = commandIds.map((c) => c.replace(/:/g, ' ')).filter((c) => !c.startsWith('__'))
  const closest = known
    .map((command) => ({ command, distance: editDistance(typed, command) }))
    .filter(({ command, distance }) => distance <= Math.max(2, Math.floor(typed.length / 3)) || command.startsWith(typed))
    .sort((a, b) => a.distance - b.distance)[0]
  const hint = closest ? `did you mean "${closest.command}"? See chainnode --help` : 'see chainnode --help for the commands'
  return `error: unknown command "${typed}"; ${hint}\n`
}

/** The name oclif could not find in its "command X not found" error, if that is what this is. */
export function notFoundCommand(error: unknown): string | undefined {
  return /^command (\S+) not found/.exec((error as Error)?.message ?? '')?.[1]
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length]
}
