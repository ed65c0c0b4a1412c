import type { FlameGraph } from '../pprof/flame.js'
import { scaledLabel } from '../pprof/measurement.js'
import { escapeMarkup } from './markup.js'
import { FLAME_SCRIPT, FLAME_STYLE } from './flame-page.js'
import { visible } from './visible.js'

export interface FlameSource {
  /** The profile's path as the user gave it. */
  file: string
}

/**
 * `pprof flame -o FILE.html`: one self-contained page, search and zoom included. Its policy lets it load
 * nothing and send nothing; the graph travels in a JSON block that no name can close early.
 */
export function renderFlameHtml(graph: FlameGraph, source: FlameSource): string {
  const title = `${visible(source.file)}: ${graph.sampleType}`
  const policy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'"
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeMarkup(`flame graph of ${title}`)}</title>
<style>${FLAME_STYLE}</style>
</head>
<body>
<header>
<h1>${escapeMarkup(title)}</h1>
<p class="facts">${escapeMarkup(flameFacts(graph).join(' · '))}</p>
<div class="tools">
<input id="search" type="search" placeholder="Search functions (regexp; / to focus, Esc to clear)" aria-label="Search functions" autocomplete="off" spellcheck="false">
<button id="reset" type="button">Reset zoom</button>
<span id="matched" aria-live="polite"></span>
</div>
</header>
<div id="details" aria-live="polite"></div>
<div id="chart"></div>
<script type="application/json" id="flame-data">${scriptSafeJson(flameData(graph))}</script>
<script>${FLAME_SCRIPT}</script>
</body>
</html>
`
}

/** The lines above the graph, shared by the page and the picture: totals, what was left out, the filters. */
export function flameFacts(graph: FlameGraph): string[] {
  const facts = [`Type: ${graph.sampleType}`, `Total: ${scaledLabel(graph.total, graph.unit, 'auto')}`, `${graph.value.length - 1} frames`]
  if (graph.timeNanos !== 0) facts.push(`Time: ${new Date(Math.floor(graph.timeNanos / 1e6)).toISOString()}`)
  if (graph.durationNanos !== 0) facts.push(`Duration: ${scaledLabel(graph.durationNanos, 'nanoseconds', 'auto')}`)
  if (graph.omitted.frames > 0)
    facts.push(`${graph.omitted.frames} frames under ${scaledLabel(graph.omitted.value, graph.unit, 'auto')} in all left out (too narrow to draw)`)
  if (graph.negativeSamples > 0) facts.push(`${graph.negativeSamples} samples with negative values left out`)
  if (graph.activeFilters.length > 0) facts.push(`Active filters: ${graph.activeFilters.map(visible).join(', ')}`)
  return facts
}

function flameData(graph: FlameGraph): object {
  return {
    unit: graph.unit,
    filtered: graph.activeFilters.length > 0,
    names: graph.names.map(visible),
    name: Array.from(graph.name),
    depth: Array.from(graph.depth),
    value: Array.from(graph.value),
    self: Array.from(graph.self),
  }
}

/** JSON that stays data inside <script>: no "</script>", "<!--" or line separator can end or bend the block. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
