import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { nodeEvent, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()
const MISSING = 'Missing upgrade or image for upgrade at height 1200000'

describe('upgrade-blocked', () => {
  it('the chain halted at an upgrade height the operator has no image for', () => {
    const s = clone()
    nodeEvent(s, 'UpgradeMissingData', MISSING, 3)
    const [finding] = findingsOf(s, 'upgrade-blocked')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(/^the chain reached an upgrade height and halted, but the operator has no scheduled upgrade with an image for that height/)
    expect(finding.summary).toMatch(/1200000/)
    expect(finding.evidence.some((e) => e.text.includes(MISSING))).toBe(true)
  })

  it('is over once the upgrade completed', () => {
    const s = clone()
    nodeEvent(s, 'UpgradeMissingData', MISSING, 30)
    nodeEvent(s, 'UpgradeCompleted', 'Upgrade v2 completed at height 1200000', 5, 'Normal')
    expect(findingsOf(s, 'upgrade-blocked')).toEqual([])
  })
})
