import type { KubeObject, Snapshot } from '../../src/snapshot/types.js'
import { findObject, useBundles } from './bundles.js'
import { managerLine, operatorEvent } from './operator-records.js'

// The healthy bundle's fullnode-0 and its operator, edited as the rule tests that check a cause need them:
// causes are read off what decides between them, and "cannot tell which" names both when that is missing.

/** Reads the healthy bundle before the file's tests run; the function returned gives a fresh copy of it. */
export function useHealthy(): () => Snapshot {
  const load = useBundles('healthy')
  return () => load('healthy')
}

export const healthyNode = (s: Snapshot) => findObject(s, 'ChainNode', 'fullnode-0')
export const healthyOperator = (s: Snapshot) => findObject(s, 'Deployment', 'cosmopilot')
export const healthyManagerLog = (s: Snapshot) => s.logs.find((l) => l.container === 'manager' && l.namespace === 'cosmopilot-system' && !l.previous)!
/** The time `minutes` before the bundle was collected, as the API server writes it. */
export const minutesBefore = (s: Snapshot, minutes: number) => new Date(Date.parse(s.collectedAt) - minutes * 60_000).toISOString()
/** Three reconciles of `obj` failed with `error`, 9, 5 and 1 minutes before collection. */
export const failReconciles = (s: Snapshot, obj: KubeObject, error: string) => {
  for (const minutes of [9, 5, 1]) healthyManagerLog(s).text += managerLine(obj, { msg: 'Reconciler error', error, at: minutesBefore(s, minutes) }, 'rfc3339')
}
/** A reconcile of `obj` that went through `minutes` before collection: the failures before it are over. */
export const reconcileSucceeds = (s: Snapshot, obj: KubeObject, minutes = 0.5) => {
  healthyManagerLog(s).text += managerLine(obj, { msg: 'finishing reconcile', at: minutesBefore(s, minutes) }, 'rfc3339')
}
/** The operator records an Event on fullnode-0, `minutes` before collection. */
export const nodeEvent = (s: Snapshot, reason: string, message: string, minutes: number, type = 'Warning', count = 1) => {
  s.objects.push(operatorEvent(healthyNode(s), reason, message, minutesBefore(s, minutes), type, count))
}
