import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { findingsOf, findObject, runRule, useBundles } from '../../helpers/bundles.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('image-pull', 'healthy')

describe('image-pull on the recorded bundle', () => {
  it('names the container, the image and the reason, with the waiting state and the pull Events as evidence', () => {
    const [finding] = findingsOf(load('image-pull'), 'image-pull')
    expect(finding.severity).toBe('error')
    expect(finding.subject).toMatchObject({ kind: 'Pod', name: 'pull-0' })
    expect(finding.summary).toMatch(/^container app cannot pull ghcr\.io\/cosmos\/gaia:v99\.0\.0 \((ImagePullBackOff|ErrImagePull)\)$/)
    expect(finding.cause).toBe('the registry does not have ghcr.io/cosmos/gaia:v99.0.0: the image name or tag is wrong')
    expect(finding.evidence[0]).toMatchObject({ kind: 'field', source: 'Pod/pull-0' })
    expect(finding.evidence.some((e) => e.kind === 'event' && /ghcr\.io\/cosmos\/gaia:v99\.0\.0/.test(e.text))).toBe(true)
  })

  it('quiet once the containers run (the same bundle, the image pulled)', () => {
    const s = load('image-pull')
    for (const status of findObject(s, 'Pod', 'pull-0').status.containerStatuses) status.state = { running: { startedAt: s.collectedAt } }
    expect(runRule(s, 'image-pull')).toEqual([])
  })

  it('a container waiting for another reason (CrashLoopBackOff) is no pull failure', () => {
    const s = load('healthy')
    const status = findObject(s, 'Pod', 'fullnode-0').status.containerStatuses[0]
    status.state = { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } }
    expect(runRule(s, 'image-pull')).toEqual([])
    status.state.waiting.reason = 'ErrImagePull'
    expect(runRule(s, 'image-pull')).toHaveLength(1)
  })
})

describe('image-pull reads status codes as status codes, not as digits inside numbers', () => {
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
