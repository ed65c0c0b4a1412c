import { describe, expect, it } from 'vitest'
import { signerReport } from '../../../src/analysis/signer-report.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { findObject, runRule, useBundles } from '../../helpers/bundles.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('legacy-signing')

describe('signer-report reads status codes as status codes, not as digits inside numbers', () => {
  const tmkmsLog = (s: Snapshot) => s.logs.find((l) => l.container === 'tmkms')!

  it('does not count tmkms signing lines whose heights hold 403 as secrets-store refusals', () => {
    // Log greps are cached per log record: the recorded count comes from a copy of its own.
    const recorded = runRule(load('legacy-signing'), 'legacy-signer-in-use')[0].data as { permissionErrors: number }
    const s = load('legacy-signing')
    tmkmsLog(s).text = tmkmsLog(s).text.replace(/h\/r\/s \d{4}/g, 'h/r/s 1403')
    expect(tmkmsLog(s).text).toMatch(/signed PreVote:\S+ at h\/r\/s 1403\d+\//)
    const [finding] = runRule(s, 'legacy-signer-in-use')
    expect(finding.data).toMatchObject({ permissionErrors: recorded.permissionErrors })
    expect(finding.evidence.filter((e) => e.kind === 'log' && e.source === 'log of tmkms-0/tmkms')).toEqual([])
    const report = signerReport(new SnapshotIndex(s), findObject(s, 'ChainNode', 'tmkms-0'))
    expect(report.legacy?.permissionErrors.filter((e) => e.source === 'log of tmkms-0/tmkms')).toEqual([])
  })

  it("counts tmkms's own refusal by the secrets store (status code 403)", () => {
    const recorded = runRule(load('legacy-signing'), 'legacy-signer-in-use')[0].data as { permissionErrors: number }
    const s = load('legacy-signing')
    tmkmsLog(s).text +=
      '2026-11-22T13:10:00.000000000Z 2026-11-22T13:10:00.000000Z ERROR tmkms::session: [theta-testnet-001@tcp://localhost:26659] signing failed: https://vault.vault.svc:8200/v1/transit/sign/tmkms-0: status code 403\n'
    expect(runRule(s, 'legacy-signer-in-use')[0].data).toMatchObject({ permissionErrors: recorded.permissionErrors + 1 })
  })
})
