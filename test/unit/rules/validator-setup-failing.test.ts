import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { failReconciles as failing, healthyNode as node, nodeEvent, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()
const REFUSED = 'failed to create-validator: insufficient funds: 10uatom is smaller than 1000000uatom'

describe('validator-setup-failing', () => {
  it("a create-validator the chain refuses: an error with the chain's answer, and the account to fund", () => {
    const s = clone()
    nodeEvent(s, 'FailedCreateValidator', REFUSED, 2)
    const [finding] = findingsOf(s, 'validator-setup-failing')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toMatch(/insufficient funds/)
    expect(finding.action).toMatch(/fund the account in Secret fullnode-0-account/)
  })

  it('is over once a create-validator went through', () => {
    const s = clone()
    nodeEvent(s, 'FailedCreateValidator', REFUSED, 20)
    nodeEvent(s, 'CreateValidatorSuccess', 'Validator was successfully created', 5, 'Normal')
    expect(findingsOf(s, 'validator-setup-failing')).toEqual([])
  })

  it("the validator's account Secret missing names the Secret to create", () => {
    const s = clone()
    failing(s, node(s), 'failed to get account secret: secrets "fullnode-0-account" not found')
    expect(findingsOf(s, 'validator-setup-failing')[0].action).toMatch(/^Create Secret fullnode-0-account in sc-healthy/)
  })
})
