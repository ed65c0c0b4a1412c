import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { healthyNode as node, nodeEvent, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()

describe('data-volume-full', () => {
  it('fires on .status.dataUsage at 95% and stays quiet at 94%', () => {
    const s = clone()
    node(s).status.dataUsage = '94%'
    expect(findingsOf(s, 'data-volume-full')).toEqual([])
    node(s).status.dataUsage = '95%'
    const [finding] = findingsOf(s, 'data-volume-full')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(/^the data volume is nearly full/)
    expect(finding.evidence.some((e) => e.text.includes('95%'))).toBe(true)
  })

  it('the volume at its maximum size: the operator cannot grow it further', () => {
    const s = clone()
    nodeEvent(s, 'PvcMaxSizeReached', 'Data volume reached maximum allowed size (2Ti)', 3)
    const [finding] = findingsOf(s, 'data-volume-full')
    expect(finding.cause).toMatch(/autoResizeMaxSize and cannot grow further/)
    expect(finding.summary).toMatch(/2Ti/)
  })
})
