import type { Diagnosis } from '../engine/diagnosis.js'
import type { Palette } from './palette.js'
import { visible } from './visible.js'
import { proseWidth, wrap } from './width.js'
import { timesIn } from './timeline-time.js'
import { NODES_LISTED } from './doctor-fleet-text.js'

/**
 * Trouble of the operator itself (no release, a leader Lease nobody renews, a webhook that cannot be called):
 * said once above the table, since it holds for every row under it, with the nodes it holds for and where to read more.
 */
export function operatorTroubleLines(diagnosis: Diagnosis | undefined, palette: Palette, width: number | undefined, utc = true): string[] {
  if (!diagnosis?.incidents.length) return []
  const out: string[] = []
  for (const { cause: group } of diagnosis.incidents) {
    const label = group.severity.toUpperCase()
    const nodes = group.nodes.length === 1 ? visible(`${group.nodes[0].namespace}/${group.nodes[0].name}`) : `${group.nodes.length} nodes`
    const text = `${label}: ${group.ruleId}: ${visible(timesIn(group.example.summary, utc))} (for ${nodes}; chainnode doctor --rule ${group.ruleId} explains)`
    const lines = wrap(text, proseWidth(width), '', '  ')
    lines[0] = `${palette.paint(group.severity, `${label}:`)}${lines[0].slice(label.length + 1)}`
    out.push(...lines)
  }
  return [...out, '']
}

/** Below the table, like kubectl's notes: why a CONFIG cell says unknown, one line per reason with its nodes. */
/** The fields of a status row the note reads (analysis/status-model.ts StatusRow). */
interface RowConfig {
  namespace: string
  name: string
  config: string
  configUnknown?: string
}

export function unknownConfigLines(rows: RowConfig[], withNamespace: boolean, width: number | undefined): string[] {
  const byReason = new Map<string, RowConfig[]>()
  for (const row of rows) if (row.config === 'unknown' && row.configUnknown) byReason.set(row.configUnknown, [...(byReason.get(row.configUnknown) ?? []), row])
  if (byReason.size === 0) return []
  const lines = [...byReason].flatMap(([reason, members]) => {
    const names = members.slice(0, NODES_LISTED).map((r) => visible(withNamespace ? `${r.namespace}/${r.name}` : r.name))
    const more = members.length > NODES_LISTED ? ` and ${(members.length - NODES_LISTED).toLocaleString('en-US')} more` : ''
    return wrap(`CONFIG unknown on ${names.join(', ')}${more}: ${reason}`, proseWidth(width), '', '  ')
  })
  return lines
}
