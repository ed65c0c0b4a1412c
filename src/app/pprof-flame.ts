import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { usageError } from '../util/errors.js'
import { writeFileAtomic } from '../util/fs-atomic.js'
import { flameGraph } from '../pprof/flame.js'
import type { FlameWritten } from '../pprof/results.js'
import { loadProfile } from './pprof-report.js'

export interface FlameRequest {
  file: string
  /** Where to write: .html (interactive page) or .svg (still picture); by default <profile>.flame.html here. */
  output?: string
  sampleIndex?: string
  focus?: string
  ignore?: string
  minFraction?: number
  onStep?: (what: string) => void
}

/** How a flame graph is drawn, by format: render/flame-html.ts and render/flame-svg.ts, handed over by the command. */
export type FlameRenderers = Record<'html' | 'svg', (graph: ReturnType<typeof flameGraph>, meta: { file: string }) => string>

/** `pprof flame FILE`: the profile's flame graph written, through a temporary name, as a page or a picture; the graph says which filters matched nothing. */
export async function writeFlame(request: FlameRequest, renderers: FlameRenderers): Promise<FlameWritten> {
  const output = request.output ?? defaultFlameName(request.file)
  const format = flameFormatOf(output)
  if (path.resolve(output) === path.resolve(request.file)) throw usageError(`-o ${output} is the profile itself`, 'name another file, e.g. -o flame.html')
  const profile = await loadProfile(request.file, request.onStep)
  const sampleIndex = request.sampleIndex !== undefined && /^\d+$/.test(request.sampleIndex) ? Number(request.sampleIndex) : request.sampleIndex
  request.onStep?.('building the call tree')
  const graph = flameGraph(profile, { sampleIndex, focus: request.focus, ignore: request.ignore, minFraction: request.minFraction })
  const text = renderers[format](graph, { file: request.file })
  await writeFileAtomic(output, (tmp) => writeFile(tmp, text))
  return { output, format, bytes: Buffer.byteLength(text), graph }
}

/** The format a file name asks for. */
export function flameFormatOf(output: string): 'html' | 'svg' {
  const extension = path.extname(output).toLowerCase()
  if (extension === '.svg') return 'svg'
  if (extension === '.html' || extension === '.htm') return 'html'
  throw usageError(`-o ${output}: the name must end in .html (a page with search and zoom) or .svg (a picture)`, 'e.g. -o flame.html')
}

/** heap.pb.gz -> heap.flame.html, in the working folder (the profile may sit where we cannot write). */
export function defaultFlameName(file: string): string {
  const base =
    path
      .basename(file)
      .replace(/(\.pb)?(\.gz)?$/i, '')
      .replace(/\.(pprof|prof|out)$/i, '') || 'profile'
  return `${base}.flame.html`
}
