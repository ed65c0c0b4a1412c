/**
 * "Did you mean": the one way a mistyped command, flag, rule id or namespace is matched to what exists, as kubectl
 * and git suggest: the nearest by edit distance, within a few edits, or a word the typed one begins.
 */
export function closestTo(typed: string, candidates: Iterable<string>): string | undefined {
  const within = Math.max(2, Math.floor(typed.length / 3))
  let best: { candidate: string; distance: number } | undefined
  for (const candidate of candidates) {
    if (candidate === typed) continue
    const distance = editDistance(typed, candidate)
    if (distance > within && !(typed.length > 0 && candidate.startsWith(typed))) continue
    if (!best || distance < best.distance) best = { candidate, distance }
  }
  return best?.candidate
}

/** `did you mean "x"? ` before a hint, or nothing when no candidate is near. */
export function didYouMean(typed: string, candidates: Iterable<string>, quote = true): string {
  const near = closestTo(typed, candidates)
  return near === undefined ? '' : `did you mean ${quote ? `"${near}"` : near}? `
}

/** Levenshtein distance: insertions, deletions and substitutions, one row of memory. */
export function editDistance(a: string, b: string): number {
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
