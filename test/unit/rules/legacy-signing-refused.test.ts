import { describe, expect, it } from 'vitest'
import { editable, findingsOf, runRule, useBundles } from '../../helpers/bundles.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('legacy-signing')
const refusals = (o: { kind: string; type?: string; message?: string }) => o.kind === 'Event' && o.type === 'Warning' && /tmkms|legacy/i.test(o.message ?? '')

describe('legacy-signing-refused on the recorded bundle', () => {
  it("reports the operator's refusal with its Warning Events as evidence and the migration to do first", () => {
    const s = load('legacy-signing')
    const [finding] = findingsOf(s, 'legacy-signing-refused')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toBe('the operator refuses to reconcile: the legacy signing path is still in place')
    expect(finding.action).toMatch(/^Complete the migration to the remote signer on 4\.x/)
    const events = finding.evidence.filter((e) => e.kind === 'event')
    expect(events.length).toBe((finding.data as { events: number }).events)
    expect(events.length).toBeGreaterThan(0)
  })

  it('quiet without the refusal Events (the legacy signer alone is legacy-signer-in-use)', () => {
    const s = load('legacy-signing')
    s.objects = editable(s).filter((o) => !refusals(o))
    expect(runRule(s, 'legacy-signing-refused')).toEqual([])
  })

  it('a Normal Event with the same words is no refusal', () => {
    const s = load('legacy-signing')
    for (const o of editable(s)) if (refusals(o)) o.type = 'Normal'
    expect(runRule(s, 'legacy-signing-refused')).toEqual([])
  })
})
