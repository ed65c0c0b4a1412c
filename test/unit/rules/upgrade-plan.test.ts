import { describe, expect, it } from 'vitest'
import { chainFindingsOf, recorded, useSimdValidator } from '../../helpers/cosmos-chain.js'

const asSimdValidator = useSimdValidator()
/** The chain as it was after the upgrade proposal passed. */
const planned = { [recorded.answers.currentPlanNone.path]: 'currentPlan' }

describe('upgrade-plan on the recorded chain', () => {
  it('an error when near with no image, naming the height, the blocks left and the time', async () => {
    const [none] = chainFindingsOf(await asSimdValidator('val-0', planned), 'upgrade-plan')
    expect(none.severity).toBe('error')
    expect(none.summary).toMatch(
      new RegExp(
        `^upgrade "v2" at height ${recorded.planHeight}, in ${recorded.planHeight - 40} blocks \\(~\\S+ at the recent block time of \\d+\\.\\ds\\): no image is set for it$`,
      ),
    )
  })

  it("adds the operator's own reading of the upgrade", async () => {
    const s = await asSimdValidator(
      'val-0',
      planned,
      (n) => (n.status.upgrades = [{ height: recorded.planHeight, status: 'image-missing', source: 'on-chain' }]),
    )
    expect(chainFindingsOf(s, 'upgrade-plan')[0].summary).toMatch(/no image is set for it \(operator: image-missing\)$/)
  })

  it('info once an image is set for it', async () => {
    const s = await asSimdValidator('val-0', planned, (n) => (n.spec.app.upgrades = [{ height: recorded.planHeight, image: 'simd:v2' }]))
    const [finding] = chainFindingsOf(s, 'upgrade-plan')
    expect(finding.severity).toBe('info')
    expect(finding.summary).toMatch(/: image simd:v2 is set for it$/)
  })

  it('quiet with no plan, and once the chain is at the height', async () => {
    expect(chainFindingsOf(await asSimdValidator('val-0', {}), 'upgrade-plan')).toEqual([])
    expect(chainFindingsOf(await asSimdValidator('val-0', planned, () => {}, recorded.planHeight), 'upgrade-plan')).toEqual([])
  })
})
