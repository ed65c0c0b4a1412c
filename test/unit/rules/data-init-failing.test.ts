import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { healthyNode as node, nodeEvent, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()
const FAILED = 'Data initialization pod failed: init-data: exit code 1'

describe('data-init-failing', () => {
  it("reports the operator's DataInitFailed with the init Pod to read", () => {
    const s = clone()
    node(s).status.phase = 'InitializingData'
    nodeEvent(s, 'DataInitFailed', FAILED, 2, 'Warning', 4)
    const [finding] = findingsOf(s, 'data-init-failing')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(
      /^the data init Pod \(fullnode-0-init-data: snapshot download or \.spec\.persistence\.additionalInitCommands\) fails; the operator deletes it and retries/,
    )
    expect(finding.action).toMatch(/kubectl logs -n sc-healthy fullnode-0-init-data --all-containers/)
    expect(finding.evidence.some((e) => e.text.includes(FAILED))).toBe(true)
  })

  it('a data init that succeeded after the failure is over', () => {
    const s = clone()
    nodeEvent(s, 'DataInitFailed', FAILED, 20)
    nodeEvent(s, 'DataInitialized', 'Data volume was successfully initialized', 5, 'Normal')
    expect(findingsOf(s, 'data-init-failing')).toEqual([])
  })
})
