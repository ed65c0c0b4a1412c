import { describe, expect, it } from 'vitest'
import { useHealthy } from '../../helpers/healthy-edits.js'
import { appendAppLines, findingsAtProbe as findingsOf } from '../../helpers/validator-probes.js'

const clone = useHealthy()

describe('chain failure lines in the app log', () => {
  const withAppLines = (lines: string[]) => appendAppLines(clone(), lines)

  it('CONSENSUS FAILURE! and a wrong app hash: one error, the app hash first', () => {
    const snapshot = withAppLines([
      'E[2026-11-22|13:20:04.000] CONSENSUS FAILURE!!!                         module=consensus err="+2/3 committed an invalid block: wrong Block.Header.AppHash.  Expected 6B7C, got 1A2B"',
    ])
    const [finding] = findingsOf(snapshot, 'consensus-failure')
    expect(finding.summary).toBe('the app computed another state than the chain (wrong app hash)')
    expect(finding.evidence[0].text).toMatch(/CONSENSUS FAILURE!!!/)
    expect(findingsOf(withAppLines(['I[2026-11-22|13:20:04.000] executed block height=9 appHash=6B7C']), 'consensus-failure')).toEqual([])
  })
})
