import { refOf } from '../snapshot/index.js'
import type { CosmosReading, KubeObject, ObjectRef } from '../snapshot/types.js'
import type { Evidence } from './define-rule.js'
import { eventCount, eventText, eventTime } from '../snapshot/events.js'
import type { KubeEvent } from '../snapshot/kinds.js'

/** The evidence items rules attach to a finding: an Event, a field's value, something looked for and not found. */
export function eventEvidence(event: KubeEvent): Evidence {
  const involved = event.involvedObject ?? event.regarding ?? {}
  const count = eventCount(event)
  return {
    kind: 'event',
    source: `Event ${event.type ?? 'Normal'} ${event.reason ?? ''} on ${involved.kind}/${involved.name}`,
    text: `${eventText(event)}${count > 1 ? ` (x${count})` : ''}`,
    at: eventTime(event),
  }
}

export function field(obj: KubeObject | ObjectRef, path: string, value: unknown): Evidence {
  const ref = 'metadata' in obj ? refOf(obj as KubeObject) : (obj as ObjectRef)
  return { kind: 'field', source: `${ref.kind}/${ref.name}`, text: `${path} = ${value === undefined ? '<none>' : JSON.stringify(value)}` }
}

export function missing(source: string, text: string): Evidence {
  return { kind: 'missing', source, text }
}

/** What a Cosmos SDK module answered over /abci_query (path: the query after "/cosmos.", e.g. slashing.v1beta1.Query/Params). */
export function cosmosQuery(cosmos: Pick<CosmosReading, 'source' | 'at'>, path: string, text: string): Evidence {
  return { kind: 'probe', source: `abci_query /cosmos.${path} via ${cosmos.source}`, text, at: cosmos.at }
}
