import { refOf } from '../snapshot/index.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { reconcileErrorEvidence } from '../analysis/reconcile-log.js'
import { byReason, matchingEvents } from '../snapshot/events.js'
import { eventEvidence, field } from '../engine/evidence.js'

/** The API server refuses the bigger request outright; the operator only logs it (`failed to resize PVC …`). */
const RESIZE_REFUSED = /failed to resize PVC|can be resized|must support resize/

const UNITS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50 }
export function quantityBytes(quantity: string | undefined): number | undefined {
  const match = quantity ? /^(\d+(?:\.\d+)?)([kMGTP]i?)?$/.exec(quantity) : null
  return match ? Number(match[1]) * UNITS[match[2] ?? ''] : undefined
}

export default defineRule<{
  pvc: string
  storageClass?: string
  requested?: string
  capacity?: string
  usage?: string
  waiting: boolean
  refused: boolean
  /** The class allows expansion: the refusal has another reason (a statically provisioned volume, a quota). */
  expandable?: boolean
}>({
  id: 'pvc-not-growing',
  title: 'Data volume does not grow',
  severity: 'error',
  severityNote: '(warning when only near full)',
  specRow: 'PVC does not grow',
  // A volume that cannot grow fills up.
  explains: ['data-volume-full'],
  logs: ['operator'],
  check({ index, node }) {
    const pvc = index.dataPvcOf(node)
    if (!pvc || node.spec?.persistence?.autoResize === false) return []
    const storageClass = index.storageClassOf(pvc)
    const expandable = storageClass?.allowVolumeExpansion === true
    const refusals = reconcileErrorEvidence(index, node, RESIZE_REFUSED)
    if (expandable && refusals.length === 0) return []
    const requested = pvc.spec?.resources?.requests?.storage
    const capacity = pvc.status?.capacity?.storage
    const waiting = (quantityBytes(requested) ?? 0) > (quantityBytes(capacity) ?? Number.POSITIVE_INFINITY)
    const usage = node.status?.dataUsage
    const threshold = node.spec?.persistence?.autoResizeThreshold ?? 80
    const nearFull = usage !== undefined && Number.parseInt(usage, 10) > threshold
    const refused = refusals.length > 0
    if (!waiting && !nearFull && !refused) return []
    const evidence: Evidence[] = [
      field(pvc, '.spec.resources.requests.storage', requested),
      field(pvc, '.status.capacity.storage', capacity),
      field(node, '.status.dataUsage', usage),
      storageClass
        ? field(storageClass, '.allowVolumeExpansion', storageClass.allowVolumeExpansion)
        : { kind: 'missing', source: 'StorageClass', text: `storage class ${pvc.spec?.storageClassName ?? '(default)'} not found` },
      ...matchingEvents(index, node, byReason('PvcResized', 'PvcMaxSizeReached')).map(eventEvidence),
      ...matchingEvents(index, pvc, (e) => /resiz|expan/i.test(`${e.reason} ${e.message}`)).map(eventEvidence),
      ...refusals,
    ]
    return [
      {
        subject: refOf(pvc),
        severity: waiting || refused ? 'error' : 'warning',
        data: {
          pvc: pvc.metadata.name,
          storageClass: storageClass?.metadata.name ?? pvc.spec?.storageClassName,
          requested,
          capacity,
          usage,
          waiting,
          refused,
          ...(expandable ? { expandable } : {}),
        },
        evidence,
      },
    ]
  },
  summary: (d) =>
    d.waiting
      ? `PVC ${d.pvc} asks for ${d.requested} but still has ${d.capacity}`
      : d.refused
        ? `the API server refuses to resize PVC ${d.pvc}${d.usage ? ` (${d.usage} full)` : ''}`
        : `PVC ${d.pvc} is ${d.usage} full and cannot be expanded`,
  cause: (d) =>
    d.expandable
      ? `the API server refuses the resize although storage class ${d.storageClass} allows expansion: the volume is not dynamically provisioned by it, or a quota refuses the size (the error says which)`
      : `storage class ${d.storageClass ?? '(default)'} lacks allowVolumeExpansion: true`,
  action: (d) =>
    d.expandable
      ? `Read the refusal and the PVC (kubectl describe pvc ${d.pvc}); for a static volume, grow the PersistentVolume by hand; for a quota, raise it.`
      : `Use a storage class with allowVolumeExpansion: true (or set it on ${d.storageClass ?? 'the storage class'} if its driver supports expansion).`,
})
