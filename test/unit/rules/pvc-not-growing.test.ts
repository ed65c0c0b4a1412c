import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { reconcilerError } from '../../cluster/scenarios/lib/logfmt.js'
import { findingsOf, findObject, useBundles } from '../../helpers/bundles.js'
import { appendManagerLog, dateBefore } from '../../helpers/snapshot-edits.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('pvc-not-growing')

describe('specific rules read the operator log as well as Events', () => {
  it('pvc-not-growing: a resize the API server refused, with no Event and no pending request', () => {
    const calm = (s: Snapshot) => {
      const pvc = findObject(s, 'PersistentVolumeClaim', 'grow-0')
      pvc.spec.resources.requests.storage = pvc.status.capacity.storage
      findObject(s, 'ChainNode', 'grow-0').status.dataUsage = '60%'
      return s
    }
    expect(findingsOf(calm(load('pvc-not-growing')), 'pvc-not-growing')).toEqual([])
    const s = calm(load('pvc-not-growing'))
    const refusal = `failed to resize PVC grow-0: persistentvolumeclaims "grow-0" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`
    appendManagerLog(s, [reconcilerError(dateBefore(s, 30), 'ChainNode', 'sc-pvc-not-growing', 'grow-0', 'resize-1', refusal)])
    const [finding] = findingsOf(s, 'pvc-not-growing')
    expect(finding).toMatchObject({ severity: 'error', summary: 'the API server refuses to resize PVC grow-0 (60% full)' })
    expect(finding.evidence.at(-1)?.text).toBe(refusal)
  })
})
