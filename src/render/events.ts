import { humanAge } from '../util/duration.js'
import { columns } from './columns.js'
import { visible } from './visible.js'
import { eventCount, eventFirstTime, eventText, eventTime } from '../snapshot/events.js'
import type { KubeEvent } from '../snapshot/kinds.js'

/** kubectl's age column for an event: "5m", or "5m (x3 over 20m)" for a repeated one. */
export function eventAge(event: KubeEvent, now: number): string {
  const last = humanAge(now - Date.parse(eventTime(event)))
  const count = eventCount(event)
  if (count <= 1) return last
  return `${last} (x${count} over ${humanAge(now - Date.parse(eventFirstTime(event)))})`
}

export const eventObject = (event: KubeEvent): string => {
  const involved = event.involvedObject ?? event.regarding ?? {}
  return `${String(involved.kind ?? '').toLowerCase()}/${involved.name ?? ''}`
}

export const eventSource = (event: KubeEvent): string => event.source?.component ?? event.reportingComponent ?? event.reportingController ?? ''

export function renderEventsTable(events: KubeEvent[], now: number, withNamespace: boolean, noHeaders = false): string {
  return columns(
    [...(withNamespace ? ['namespace'] : []), 'last seen', 'type', 'reason', 'object', 'message'],
    events.map((e) =>
      [...(withNamespace ? [e.metadata.namespace ?? ''] : []), eventAge(e, now), e.type ?? '', e.reason ?? '', eventObject(e), eventText(e).trim()].map(
        visible,
      ),
    ),
    { noHeaders },
  )
}
