import { usageError } from '../util/errors.js'

/** How often --watch reads again: the tool polls (one snapshot per round) where kubectl holds a watch open. */
export const WATCH_INTERVAL_MS = 2000

export function requireLive(bundle: string | undefined): void {
  if (bundle) throw usageError('--watch needs a live cluster: a bundle does not change', 'drop --bundle or --watch')
}

/** A row of a watched listing: the line to print, and what tells a change apart from time passing (ages tick). */
export interface WatchedRow {
  line: string
  version: string
}

/**
 * kubectl get -w: after the first listing, print each row that is new or changed, keyed by what it is
 * about (a node, an Event). Runs until Ctrl-C, which ends the process (src/util/cleanup.ts).
 */
export async function watchRows(
  read: () => Promise<Map<string, WatchedRow>>,
  seen: Map<string, WatchedRow>,
  print: (line: string) => void,
  intervalMs = WATCH_INTERVAL_MS,
): Promise<never> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
    const next = await read()
    for (const [key, row] of next) if (seen.get(key)?.version !== row.version) print(row.line)
    seen = next
  }
}

/** The rows of a table printed without its header, keyed, each with its version. */
export function keyedRows(rows: { key: string; version: string }[], table: string): Map<string, WatchedRow> {
  const lines = table.split('\n')
  return new Map(rows.map(({ key, version }, i) => [key, { line: lines[i] ?? '', version }]))
}
