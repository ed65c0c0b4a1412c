import { describe, expect, it } from 'vitest'
import { companionCase, findObject, runAllRules, useBundles } from '../../helpers/bundles.js'

companionCase(
  'component-version',
  'signer-pubkey',
  () => undefined,
  (s) => {
    for (const c of findObject(s, 'StatefulSet', 'val-1-signer').spec.template.spec.containers) c.image = 'ghcr.io/voluzi/cosmosigner:3.1.0'
  },
)

describe('rules that companion a root cause, on recorded snapshots', () => {
  const load = useBundles('signer-pubkey')

  it('leaves a consequence out when its root cause fires on the same node, and says so', () => {
    const report = runAllRules(load('signer-pubkey'))
    expect(report.findings.map((f) => f.ruleId)).toEqual(['signer-pubkey'])
    expect(report.suppressed).toContainEqual({
      ruleId: 'component-version',
      node: { kind: 'ChainNode', namespace: 'sc-signer-pubkey', name: 'val-1' },
      by: 'signer-pubkey',
    })
  })
})
