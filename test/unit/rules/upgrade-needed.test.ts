import { describe, expect, it } from 'vitest'
import { findObject } from '../../helpers/bundles.js'
import { useHealthy } from '../../helpers/healthy-edits.js'
import { appendAppLines, findingsAtProbe as findingsOf } from '../../helpers/validator-probes.js'

const clone = useHealthy()

describe('chain failure lines in the app log', () => {
  const withAppLines = (lines: string[]) => appendAppLines(clone(), lines)

  it('UPGRADE NEEDED: the name, the height and whether an image is set for it', () => {
    const line = 'ERR UPGRADE "v17" NEEDED at height: 1200: {"binaries":{}} module=x/upgrade'
    const [finding] = findingsOf(withAppLines([line]), 'upgrade-needed')
    expect(finding.summary).toBe('upgrade "v17" needed at height 1200: no image is set for it')
    expect(finding.evidence[0].text).toBe(line)
    const planned = withAppLines([line])
    const node = findObject(planned, 'ChainNode', 'fullnode-0')
    node.spec.app.upgrades = [{ height: 1200, image: 'ghcr.io/cosmos/gaia:v17.0.0' }]
    expect(findingsOf(planned, 'upgrade-needed')[0].summary).toBe('upgrade "v17" needed at height 1200: image ghcr.io/cosmos/gaia:v17.0.0 is set for it')
    node.spec.app.image = 'ghcr.io/cosmos/gaia:v17.0.0'
    expect(findingsOf(planned, 'upgrade-needed')).toEqual([])
  })
})
