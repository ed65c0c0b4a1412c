import { describe, expect, it } from 'vitest'
import { planSignerProbes } from '../../../src/app/signer-probes.js'
import { signerReport } from '../../../src/analysis/signer-report.js'
import { signerTargets } from '../../../src/analysis/signer-context.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { KubeObject, Snapshot } from '../../../src/snapshot/types.js'
import { findObject, runRule, useBundles } from '../../helpers/bundles.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('signer-pubkey', 'signer-discovery-timeout', 'legacy-signing', 'image-pull')

const SIGNER_0_2 = 'ghcr.io/voluzi/cosmosigner:0.2.1'
const NODE_UTILS_2_10 = 'ghcr.io/voluzi/node-utils:2.10.0'

/** The signer-pubkey bundle as the 3.0.0 operator lays it out: wait-for-dns gate, TMKMS_PROXY, cosmosigner 0.2.x. */
function onThreeLine(s: Snapshot): Snapshot {
  const pod = findObject(s, 'Pod', 'val-1')
  for (const c of pod.spec.initContainers) {
    if (c.name === 'wait-cosmosigner-discovery') {
      c.args = ['wait-for-dns', 'val-1-signer-privval.sc-signer-pubkey.svc', '$(POD_IP)', '25s']
      c.image = NODE_UTILS_2_10
    }
    if (c.name === 'node-utils') {
      c.image = NODE_UTILS_2_10
      c.env = [...(c.env ?? []), { name: 'TMKMS_PROXY', value: 'true' }]
    }
  }
  for (const status of pod.status.initContainerStatuses ?? []) status.image = NODE_UTILS_2_10
  for (const o of s.objects) {
    const spec = o.kind === 'StatefulSet' ? o.spec.template.spec : o.kind === 'Pod' ? o.spec : undefined
    for (const c of spec?.containers ?? []) if (c.name === 'cosmosigner') c.image = SIGNER_0_2
  }
  return s
}

/** What the active probes record against cosmosigner 0.2.x: nothing listens on 8080. */
function refusedHttpProbes(s: Snapshot): void {
  for (const pod of ['val-1-signer-0', 'val-1-signer-1'])
    for (const path of ['/livez', '/readyz'])
      s.probes.push({
        kind: 'signer-http',
        namespace: 'sc-signer-pubkey',
        pod,
        target: `pod/${pod}:8080${path}`,
        at: s.collectedAt,
        ok: false,
        detail: 'connection refused',
      })
}

describe('signer-unhealthy on the 3.x line', () => {
  it('plans no HTTP probes of a 3.x signer, but still the gate test', () => {
    const five = planSignerProbes(load('signer-pubkey'))
    const three = planSignerProbes(onThreeLine(load('signer-pubkey')))
    expect(five.filter((p) => p.kind === 'signer-http').map((p) => p.pod)).toContain('val-1-signer-0')
    expect(three.filter((p) => p.kind === 'signer-http')).toEqual([])
    expect(three.filter((p) => p.kind === 'signer-gate')).toEqual(five.filter((p) => p.kind === 'signer-gate'))
  })

  it('does not count failing HTTP probes against ready 3.x signer Pods', () => {
    const three = onThreeLine(load('signer-pubkey'))
    refusedHttpProbes(three)
    expect(runRule(three, 'signer-unhealthy')).toEqual([])
  })

  it('still reports a 3.x signer Pod that is running but not Ready', () => {
    const three = onThreeLine(load('signer-pubkey'))
    refusedHttpProbes(three)
    const ready = findObject(three, 'Pod', 'val-1-signer-1').status.conditions.find((c: { type: string }) => c.type === 'Ready')
    ready.status = 'False'
    const [finding] = runRule(three, 'signer-unhealthy')
    expect(finding.summary).toBe('signer val-1-signer: val-1-signer-1 readiness failing')
  })

  it('still reports failing HTTP probes on the 5.x line', () => {
    const five = load('signer-pubkey')
    refusedHttpProbes(five)
    expect(runRule(five, 'signer-unhealthy')[0].summary).toMatch(/val-1-signer-0 livez, val-1-signer-0 readyz/)
  })
})

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
    for (const pod of s.objects.filter((o) => o.kind === 'Pod' && /^val-1-signer-/.test(o.metadata.name))) {
      pod.status.phase = 'Pending'
      for (const c of pod.status.conditions ?? []) if (c.type === 'Ready') c.status = 'False'
    }
    const [finding] = runRule(s, 'signer-pubkey')
    expect(finding.cause).toMatch(/^no signer Pod of val-1-signer is ready \(0 of \d running\)/)
    expect(finding.action).toMatch(/^Bring the signer up first: .*kubectl chainnode signer val-1 -n sc-signer-pubkey/)
  })
})

describe('signer-discovery-timeout counts Ready signer Pods', () => {
  const readyCondition = (pod: KubeObject) => pod.status.conditions.find((c: { type: string }) => c.type === 'Ready')

  it('names a signer that runs but is not Ready (signer-unhealthy gives way to this rule)', () => {
    const s = load('signer-discovery-timeout')
    expect(findObject(s, 'Pod', 'val-signer-0').status.phase).toBe('Running')
    expect(readyCondition(findObject(s, 'Pod', 'val-signer-0')).status).toBe('False')
    const [finding] = runRule(s, 'signer-discovery-timeout')
    expect(finding.data).toMatchObject({ signerPodsReady: 0, signerPodsRunning: 1, signerPods: 1 })
    expect(finding.cause).toContain('no signer Pod of val-signer is ready (1 of 1 running)')
    expect(finding.evidence.map((e) => `${e.source}: ${e.text}`)).toContain('Pod/val-signer-0: Ready = false')
  })

  it('does not blame a Ready signer', () => {
    const s = load('signer-discovery-timeout')
    readyCondition(findObject(s, 'Pod', 'val-signer-0')).status = 'True'
    const [finding] = runRule(s, 'signer-discovery-timeout')
    expect(finding.data).toMatchObject({ signerPodsReady: 1 })
    expect(finding.cause).not.toMatch(/no signer Pod/)
  })

  it('says how many run when none is, before the Service endpoints that follow from it', () => {
    const s = load('signer-discovery-timeout')
    findObject(s, 'Pod', 'val-signer-0').status.phase = 'Pending'
    expect(runRule(s, 'signer-discovery-timeout')[0].cause).toMatch(/^no signer Pod of val-signer is ready \(0 of 1 running\); .*has no endpoints/)
  })

  it('a check that ran and got no data fails the gate even where it passed at start (the signer is silent now); one that could not run is no timeout', () => {
    // signer-pubkey: val-1's gate passed (exit 0) and its signer has endpoints, so the gate check targets a real Pod.
    const s = load('signer-pubkey')
    const index = new SnapshotIndex(s)
    const node = index.chainNodes().find((n) => n.metadata.name === 'val-1')!
    const [target] = signerTargets(index, node, 'val-1-signer')
    expect(target).toBeDefined()
    const gate = findObject(s, 'Pod', 'val-1').status.initContainerStatuses.find((c: { name: string }) => c.name === 'wait-cosmosigner-discovery')
    expect(gate.state.terminated.exitCode).toBe(0)
    const failedCheck = {
      kind: 'signer-gate' as const,
      namespace: 'sc-signer-pubkey',
      pod: target,
      target: `pod/${target}:26659`,
      at: s.collectedAt,
      ok: false,
    }
    expect(runRule(s, 'signer-discovery-timeout')).toEqual([])
    // The signer accepts and sends nothing now: the next start's gate would time out, whatever this Pod's gate said.
    s.probes.push({ ...failedCheck, detail: 'connected, but no data arrived within 25s' })
    expect(runRule(s, 'signer-discovery-timeout')).toHaveLength(1)
    // The gate has not run yet: a check that ran and failed stands in for it; one that could not run does not.
    gate.state = { waiting: { reason: 'PodInitializing' } }
    gate.lastState = {}
    expect(runRule(s, 'signer-discovery-timeout')).toHaveLength(1)
    s.probes = s.probes.map((p) => (p.kind === 'signer-gate' ? { ...p, couldNotRun: true, detail: 'the check could not run: error forwarding port' } : p))
    expect(runRule(s, 'signer-discovery-timeout')).toEqual([])
  })
})

describe('NetworkPolicy selectors with matchExpressions', () => {
  const NS = 'sc-signer-discovery-timeout'
  /** The example with its node NetworkPolicy replaced by the given one. */
  function withPolicy(spec: object): Snapshot {
    const s = load('signer-discovery-timeout')
    s.objects = s.objects.filter((o) => !(o.kind === 'NetworkPolicy' && o.metadata.name === 'validator-lockdown'))
    s.objects.push({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'under-test', namespace: NS }, spec })
    return s
  }
  const blockedBy = (s: Snapshot) => runRule(s, 'signer-discovery-timeout')[0].data as { blockedBy: string[] }
  const webOnly = { policyTypes: ['Ingress'], ingress: [{ ports: [{ port: 80, protocol: 'TCP' }] }] }
  const signerPortFrom = (podSelector: object) => ({
    podSelector: { matchLabels: { 'chain-node': 'val-0' } },
    policyTypes: ['Ingress'],
    ingress: [{ ports: [{ port: 26659, protocol: 'TCP' }], from: [{ podSelector }] }],
  })

  it('a policy whose matchExpressions leave the node Pod out does not block it', () => {
    expect(blockedBy(withPolicy({ podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['nginx'] }] }, ...webOnly })).blockedBy).toEqual([])
  })

  it('a policy whose matchExpressions select the node Pod blocks it', () => {
    const s = withPolicy({ podSelector: { matchExpressions: [{ key: 'chain-node', operator: 'In', values: ['val-0'] }] }, ...webOnly })
    expect(blockedBy(s).blockedBy).toEqual(['under-test'])
  })

  it('a peer whose matchExpressions leave the signer out does not admit it', () => {
    const s = withPolicy(signerPortFrom({ matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: ['cosmoguard'] }] }))
    expect(blockedBy(s).blockedBy).toEqual(['under-test'])
  })

  it('a peer whose matchExpressions take the signer in admits it', () => {
    const s = withPolicy(signerPortFrom({ matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: ['cosmosigner'] }] }))
    expect(blockedBy(s).blockedBy).toEqual([])
  })
})

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
