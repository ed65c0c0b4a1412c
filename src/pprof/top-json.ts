import type { TopResult } from './top.js'

/**
 * `pprof top -o json`: the table `go tool pprof -top` prints, as numbers in
 * the profile's own unit (bytes, nanoseconds, count) rather than scaled
 * labels, so a script can compare and sum them. Row order, the node cut and
 * the percentages are those of the text table.
 */
export function topJson(result: TopResult, source: { file: string; base?: string }): string {
  const document = {
    file: source.file,
    ...(source.base === undefined ? {} : { base: source.base }),
    sampleType: result.sampleType,
    unit: result.unit,
    total: result.total,
    activeFilters: result.activeFilters,
    showing: result.showing,
    droppedNodes: result.dropped.nodes,
    nodes: result.nodesAfterTrim,
    time: result.header.timeNanos === 0 ? null : new Date(Math.floor(result.header.timeNanos / 1e6)).toISOString(),
    durationNanos: result.header.durationNanos,
    rows: result.rows.map((r) => ({
      name: r.name,
      flat: r.flat,
      flatPct: round(r.flatPct),
      sumPct: round(r.sumPct),
      cum: r.cum,
      cumPct: round(r.cumPct),
      inline: r.inline,
    })),
  }
  return `${JSON.stringify(document, null, 2)}\n`
}

/** Percentages to 4 decimals: what pprof prints is at most 2, and floats should not look noisy. */
function round(pct: number): number {
  return Math.round(pct * 1e4) / 1e4
}
