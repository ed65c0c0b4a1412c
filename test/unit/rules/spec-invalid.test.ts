import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { managerLine } from '../../helpers/operator-records.js'
import {
  failReconciles as failing,
  healthyManagerLog as managerLog,
  healthyNode as node,
  minutesBefore as before,
  useHealthy,
} from '../../helpers/healthy-edits.js'

const clone = useHealthy()

describe('spec-invalid with webhooks disabled', () => {
  it('the bare reconcile error is matched to the spec-invalid line of the same reconcile, not left to the generic fallback', () => {
    const s = clone()
    const error = '.spec.persistence.size: Invalid value: "10Gi": must not shrink'
    managerLog(s).text += managerLine(node(s), { msg: 'spec is invalid', level: 'error', error, at: before(s, 1) }, 'rfc3339')
    failing(s, node(s), error)
    expect(findingsOf(s, 'spec-invalid')).toHaveLength(1)
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
  })
})
