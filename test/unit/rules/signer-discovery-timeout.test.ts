import { describe, expect, it } from 'vitest'
import { signerTargets } from '../../../src/analysis/signer-context.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { type Editable, findObject, runRule, useBundles } from '../../helpers/bundles.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('signer-discovery-timeout', 'signer-pubkey')

describe('signer-discovery-timeout counts Ready signer Pods', () => {
  const readyCondition = (pod: Editable) => pod.status.conditions.find((c: { type: string }) => c.type === 'Ready')

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
