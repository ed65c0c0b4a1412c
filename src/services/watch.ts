import { usageError } from '../errors.js'

/** How often --watch reads again: the tool polls (one snapshot per round) where kubectl holds a watch open. */
export const WATCH_INTERVAL_MS = 2000

export function requireLive(bundle: string | undefined): void {
  if (bundle) throw usageError('--watch needs a live cluster: a bundle does not change', 'drop --bundle or --watch')
}

/**
 * kubectl get -w: after the first listing, print each line that is new or changed, keyed by what it
 * is about (a node, an Event). Runs until Ctrl-C, which ends the process (src/cleanup.ts).
 */
export async function watchLines(
  read: () => Promise<Map<string, string>>,
  seen: Map<string, string>,
  print: (line: string) => void,
  intervalMs = WATCH_INTERVAL_MS,
): Promise<never> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
    const next = await read()
    for (const [key, line] of next) if (seen.get(key) !== line) print(line)
    seen = next
  }
}

/** The lines of a table without its header, keyed: what watchLines compares between rounds. */
export function keyedLines(keys: string[], table: string): Map<string, string> {
  const lines = table.split('\n')
  return new Map(keys.map((key, i) => [key, lines[i] ?? '']))
}
