import { describe, expect, it } from 'vitest'
import { signerReport } from '../../../src/analysis/signer-report.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { findObject, runRule, useBundles } from '../../helpers/bundles.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('legacy-signing', 'image-pull')

describe('status codes are read as status codes, not as digits inside numbers', () => {
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

  /** The example's pull failing on a network error, for an image pinned by a digest that holds 401 and 403. */
  function unreachableByDigest(s: Snapshot): Snapshot {
    const tag = 'ghcr.io/cosmos/gaia:v99.0.0'
    const digest = 'ghcr.io/cosmos/gaia@sha256:4013a9c0e5403f1e2b7d9a0c4e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b'
    const rewrite = (text: string) => text.replaceAll(`${tag}: not found`, 'dial tcp 140.82.114.34:443: i/o timeout').replaceAll(tag, digest)
    const pod = findObject(s, 'Pod', 'pull-0')
    pod.spec.containers.find((c: { name: string }) => c.name === 'app').image = digest
    for (const status of pod.status.containerStatuses) status.state.waiting.message = rewrite(status.state.waiting.message)
    for (const o of s.objects) if (o.kind === 'Event' && typeof o.message === 'string') o.message = rewrite(o.message)
    return s
  }

  it('does not take 401 or 403 inside an image digest for a refusal', () => {
    const [finding] = runRule(unreachableByDigest(load('image-pull')), 'image-pull')
    expect(finding.data).toMatchObject({ notFound: false, unauthorized: false })
    expect(finding.cause).toMatch(/^the image could not be pulled/)
  })

  it("reads the registry's 401 Unauthorized as a refusal", () => {
    const s = unreachableByDigest(load('image-pull'))
    for (const o of s.objects)
      if (o.kind === 'Event' && typeof o.message === 'string')
        o.message = o.message.replace('dial tcp 140.82.114.34:443: i/o timeout', 'failed to authorize: failed to fetch anonymous token: 401 Unauthorized')
    expect(runRule(s, 'image-pull')[0].data).toMatchObject({ unauthorized: true })
  })
})
