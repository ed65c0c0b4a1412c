import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { formatErrorEvent } from '../../helpers/go-format.js'
import { failReconciles as failing, healthyNode as node, nodeEvent, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()

describe('signing-key-blocked', () => {
  it('Vault: the Event FormatErrorEvent shortened and the full reconcile error give the status, method and path', () => {
    const s = clone()
    const error =
      'Error making API request.\n\nURL: PUT https://vault.vault.svc:8200/v1/transit/keys/fullnode-0/import\nCode: 403. Errors:\n\n* permission denied'
    nodeEvent(s, 'UploadFailed', formatErrorEvent('Failed to upload validator key to Vault', error), 1)
    failing(s, node(s), error)
    const [finding] = findingsOf(s, 'signing-key-blocked')
    expect(finding.cause).toMatch(/Vault answers 403 permission denied to PUT \/v1\/transit\/keys\/fullnode-0\/import/)
    expect(finding.action).toMatch(/^Grant the Vault token the operator uses .* update\/create on \/v1\/transit\/keys\/fullnode-0\/import/)
    expect(finding.evidence.some((e) => e.text.includes('UploadFailed') || e.text.includes('Failed to upload validator key'))).toBe(true)
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
  })

  it('the consensus key Secret: an error that says what cannot happen, never reconcile-failing', () => {
    const s = clone()
    failing(s, node(s), 'Secret "fullnode-0-consensus-key" not found')
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
    const [finding] = findingsOf(s, 'signing-key-blocked')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(/cannot sign blocks, .* until it does: Secret fullnode-0-consensus-key does not exist$/)
    expect(finding.action).toMatch(/^Create Secret fullnode-0-consensus-key in sc-healthy/)
    // One step, said once (the entry's action names the Secret already).
    expect(finding.action.match(/Create Secret/g)).toHaveLength(1)
  })

  it('the key Secret the validator names, whatever its name says (.spec.validator.privateKeySecret)', () => {
    const s = clone()
    node(s).spec.validator = { privateKeySecret: 'hub-signing' }
    // The manager's cached client words the NotFound with the kind: Secret "<name>" not found.
    failing(s, node(s), 'Secret "hub-signing" not found')
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
    const [finding] = findingsOf(s, 'signing-key-blocked')
    expect(finding).toMatchObject({ severity: 'error', data: { entry: 'reconcile-error/consensus-key-secret-missing' } })
    expect(finding.cause).toMatch(/until it does: Secret hub-signing does not exist$/)
    expect(finding.action).toMatch(/^Create Secret hub-signing in sc-healthy/)
  })

  it('another Secret of the same name pattern is not the key of a node that is no validator', () => {
    const s = clone()
    delete node(s).spec.validator
    failing(s, node(s), 'Secret "hub-signing" not found')
    expect(findingsOf(s, 'signing-key-blocked')).toEqual([])
    expect(findingsOf(s, 'reconcile-failing')).toHaveLength(1)
  })

  it("the account Secret missing is the validator's setup, not its signing key", () => {
    const s = clone()
    failing(s, node(s), 'failed to get account secret: secrets "fullnode-0-account" not found')
    expect(findingsOf(s, 'signing-key-blocked')).toEqual([])
    expect(findingsOf(s, 'validator-setup-failing')).toHaveLength(1)
  })

  it('a key reservation conflict is over once the operator records it recovered', () => {
    const s = clone()
    const conflict = 'consensus key reservation conflict: consensus key on chain "cosmoshub-4" is already reserved by ChainNode other/val-0 (UID 1234)'
    nodeEvent(s, 'ConsensusKeyReservationBlocked', conflict, 10)
    expect(findingsOf(s, 'signing-key-blocked')[0].summary).toMatch(/already reserved by ChainNode other\/val-0/)
    nodeEvent(s, 'ConsensusKeyReservationRecovered', 'consensus key reservation recovered', 2, 'Normal')
    expect(findingsOf(s, 'signing-key-blocked')).toEqual([])
  })
})
