import type { FlameWritten } from '../pprof/results.js'

/** The line after writing: the file, its frames and size, and how to read it. */
export function flameWrittenText(written: FlameWritten): string {
  const frames = written.graph.value.length - 1
  const how = written.format === 'html' ? 'open it in a browser (search: type a regexp; zoom: click a frame)' : 'a picture; -o NAME.html gives search and zoom'
  return `wrote ${written.output} (${frames} frames of ${written.graph.sampleType}, ${(written.bytes / 1024).toFixed(0)} KiB): ${how}`
}
