import { describe, expect, it } from 'vitest'
import { editable, findObject, runRule, useBundles } from '../../helpers/bundles.js'
import { onThreeLine } from '../../helpers/snapshot-edits.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('signer-pubkey')

describe('signer-pubkey advice follows the operator line', () => {
  it('asks for the 3.x minimums on a 3.x node, only for what is not already met', () => {
    const three = onThreeLine(load('signer-pubkey'))
    const [met] = runRule(three, 'signer-pubkey')
    // cosmosigner 0.2.1 and node-utils 2.10.0 meet the 3.x minimums: nothing to advise about versions.
    expect(met.action).not.toMatch(/or newer/)
    expect(met.action).not.toMatch(/3\.1\.0|4\.0\.0/)
    for (const c of findObject(three, 'StatefulSet', 'val-1-signer').spec.template.spec.containers) c.image = 'ghcr.io/voluzi/cosmosigner:0.1.9'
    expect(runRule(three, 'signer-pubkey')[0].action).toMatch(/remote signer is version 0\.2\.0 or newer, including image overrides/)
  })

  it('names the missed minimum when a 3.x signer is too old', () => {
    const three = onThreeLine(load('signer-pubkey'))
    for (const c of findObject(three, 'StatefulSet', 'val-1-signer').spec.template.spec.containers) c.image = 'ghcr.io/voluzi/cosmosigner:0.1.9'
    expect(runRule(three, 'signer-pubkey')[0].cause).toContain('remote signer image ghcr.io/voluzi/cosmosigner:0.1.9 is older than 0.2.0')
  })

  it('asks for the 5.x minimums on a 5.x node: the signer 3.0.2 is too old, node-utils 4.1.0 is not', () => {
    const [finding] = runRule(load('signer-pubkey'), 'signer-pubkey')
    expect(finding.action).toMatch(/remote signer is version 3\.1\.0 or newer, including image overrides/)
    expect(finding.action).not.toMatch(/node-utils/)
  })

  it('names a signer with no ready Pod first, before versions and endpoints, and says to bring it up', () => {
    const s = load('signer-pubkey')
    for (const pod of editable(s).filter((o) => o.kind === 'Pod' && /^val-1-signer-/.test(o.metadata.name))) {
      pod.status.phase = 'Pending'
      for (const c of pod.status.conditions ?? []) if (c.type === 'Ready') c.status = 'False'
    }
    const [finding] = runRule(s, 'signer-pubkey')
    expect(finding.cause).toMatch(/^no signer Pod of val-1-signer is ready \(0 of \d running\)/)
    expect(finding.action).toMatch(/^Bring the signer up first: .*kubectl chainnode signer val-1 -n sc-signer-pubkey/)
  })
})
