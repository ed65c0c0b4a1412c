import type { FlameGraph } from '../pprof/flame.js'
import { scaledLabel } from '../pprof/measurement.js'
import { flameFacts, type FlameSource } from './flame-html.js'
import { escapeMarkup } from './markup.js'
import { visible } from './visible.js'

const WIDTH = 1200
const MARGIN = 10
const ROW = 18
const HEAD = 48
/** Width of one character of the 11px monospace label, with some slack so a label never spills. */
const CHAR = 7

/**
 * `pprof flame -o FILE.svg`: a still picture for a ticket or a README. No script (an <img> runs none),
 * every frame a pixel wide or more, its full name and value in a <title> a viewer shows on hover.
 */
export function renderFlameSvg(graph: FlameGraph, source: FlameSource): string {
  const inner = WIDTH - 2 * MARGIN
  const scale = graph.total > 0 ? inner / graph.total : 0
  const frames: string[] = []
  let rows = 1
  // Pre-order gives each frame's x: it starts where its previous sibling ended.
  const cursor: number[] = [0]
  for (let i = 0; i < graph.value.length; i++) {
    const depth = graph.depth[i]!
    const x = depth === 0 ? 0 : cursor[depth - 1]!
    if (depth > 0) cursor[depth - 1] = x + graph.value[i]!
    cursor[depth] = x
    const width = graph.value[i]! * scale
    if (width < 1) continue
    rows = Math.max(rows, depth + 1)
    const name = visible(graph.names[graph.name[i]!]!)
    const share = graph.total > 0 ? ((100 * graph.value[i]!) / graph.total).toFixed(2) : '0'
    const label = fit(name, width)
    frames.push(
      `<g><title>${escapeMarkup(`${name} ${scaledLabel(graph.value[i]!, graph.unit, 'auto')} (${share}%)`)}</title>` +
        `<rect x="${(MARGIN + x * scale).toFixed(2)}" y="${HEAD + depth * ROW}" width="${width.toFixed(2)}" height="${ROW - 1}" rx="2" fill="${colourOf(name, i)}"/>` +
        (label === '' ? '' : `<text x="${(MARGIN + x * scale + 3).toFixed(2)}" y="${HEAD + depth * ROW + 13}">${escapeMarkup(label)}</text>`) +
        '</g>',
    )
  }
  const height = HEAD + rows * ROW + MARGIN
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="DejaVu Sans Mono, Menlo, monospace" font-size="11">
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="${MARGIN}" y="20" font-size="14" font-family="DejaVu Sans, sans-serif" font-weight="bold">${escapeMarkup(`${visible(source.file)}: ${graph.sampleType}`)}</text>
<text x="${MARGIN}" y="38" font-family="DejaVu Sans, sans-serif" fill="#57606a">${escapeMarkup(flameFacts(graph).join(' · '))}</text>
${frames.join('\n')}
</svg>
`
}

function fit(name: string, width: number): string {
  const room = Math.floor((width - 6) / CHAR)
  if (room < 3) return ''
  return name.length <= room ? name : `${name.slice(0, room - 2)}..`
}

/** Warm colours by Go package, as on the page; the root is grey. */
function colourOf(name: string, index: number): string {
  if (index === 0) return '#d0d7de'
  const slash = name.lastIndexOf('/')
  const dot = name.indexOf('.', slash + 1)
  const pkg = dot > 0 ? name.slice(0, dot) : name
  let h = 0
  for (let k = 0; k < pkg.length; k++) h = (h * 31 + pkg.charCodeAt(k)) >>> 0
  return `hsl(${(h % 50) + 5},${(h % 25) + 70}%,${((h >>> 8) % 15) + 58}%)`
}
