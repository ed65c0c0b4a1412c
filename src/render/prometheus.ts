/**
 * The Prometheus text exposition format (version 0.0.4), written by hand: a few gauges and counters do not
 * need a client library. https://prometheus.io/docs/instrumenting/exposition_formats/ — HELP text escapes
 * backslash and line feed; a label value escapes backslash, double quote and line feed; values are Go floats
 * (NaN, +Inf, -Inf). Names are ours, so a bad one is a bug and throws; label values may be anyone's text (a lone
 * surrogate becomes U+FFFD when the answer is encoded as UTF-8).
 */

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

export type Labels = Readonly<Record<string, string>>

export interface Sample {
  labels?: Labels
  value: number
}

export interface MetricFamily {
  name: string
  help: string
  type: 'gauge' | 'counter'
  samples: readonly Sample[]
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/

export const escapeHelp = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')

export const escapeLabelValue = (text: string): string => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Infinity) return '+Inf'
  if (value === -Infinity) return '-Inf'
  return String(value)
}

function labelText(labels: Labels | undefined): string {
  const names = Object.keys(labels ?? {})
  if (names.length === 0) return ''
  for (const name of names) if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`invalid Prometheus label name "${name}"`)
  return `{${names.map((name) => `${name}="${escapeLabelValue(labels![name])}"`).join(',')}}`
}

/**
 * One exposition: each family's HELP and TYPE, then its samples. A second sample with the same labels would
 * make Prometheus reject the whole scrape, so only the first is kept.
 */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = []
  const seenNames = new Set<string>()
  for (const family of families) {
    if (!METRIC_NAME.test(family.name)) throw new Error(`invalid Prometheus metric name "${family.name}"`)
    if (seenNames.has(family.name)) throw new Error(`metric family "${family.name}" written twice`)
    seenNames.add(family.name)
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`)
    const seenSeries = new Set<string>()
    for (const sample of family.samples) {
      const series = `${family.name}${labelText(sample.labels)}`
      if (seenSeries.has(series)) continue
      seenSeries.add(series)
      lines.push(`${series} ${formatValue(sample.value)}`)
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : ''
}
