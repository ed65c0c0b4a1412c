import { describe, expect, it } from 'vitest'
import type { KubeObject, Snapshot } from '../../../src/snapshot/types.js'
import { findObject, runRule, useBundles } from '../../helpers/bundles.js'

const load = useBundles('healthy', 'not-syncing')
const at = (s: Snapshot, secondsAgo: number) => new Date(Date.parse(s.collectedAt) - secondsAgo * 1000).toISOString()
const MINUTE = 60

function log(s: Snapshot, pod: string, container: string) {
  return s.logs.find((l) => l.pod === pod && l.container === container && !l.previous)!
}
function setReady(pod: KubeObject, ready: boolean): void {
  for (const c of pod.status.conditions) if (c.type === 'Ready' || c.type === 'ContainersReady') c.status = ready ? 'True' : 'False'
}
/** A readiness failure kubelet recorded on the Pod, last seen `lastAgo` seconds before collection. */
function readinessEvent(s: Snapshot, pod: KubeObject, statusCode: number, lastAgo: number): void {
  s.objects.push({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${pod.metadata.name}.readiness${statusCode}`, namespace: pod.metadata.namespace },
    involvedObject: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid, fieldPath: 'spec.containers{app}' },
    reason: 'Unhealthy',
    type: 'Warning',
    message: `Readiness probe failed: HTTP probe failed with statuscode: ${statusCode}`,
    firstTimestamp: at(s, lastAgo + 5 * MINUTE),
    lastTimestamp: at(s, lastAgo),
    count: 30,
  })
}
/** fullnode-0 of the healthy bundle, phase Syncing, node-utils answering syncing=true as a catching-up node's does. */
function catchingUp(): Snapshot {
  const s = load('healthy')
  findObject(s, 'ChainNode', 'fullnode-0').status.phase = 'Syncing'
  const nodeUtils = log(s, 'fullnode-0', 'node-utils')
  nodeUtils.text = nodeUtils.text.replaceAll('syncing=false', 'syncing=true')
  return s
}

describe('not-syncing without a measurement', () => {
  it('a node that just committed blocks is catching up, whatever node-utils and readiness say', () => {
    const s = catchingUp()
    const pod = findObject(s, 'Pod', 'fullnode-0')
    setReady(pod, false)
    readinessEvent(s, pod, 417, 10)
    expect(runRule(s, 'not-syncing')).toEqual([])
    // The same log read ten minutes later: its newest commit is old, the recent 417 now means a stall.
    expect(runRule(s, 'not-syncing', Date.parse(s.collectedAt) + 10 * MINUTE * 1000)).toHaveLength(1)
  })

  it('syncing=true from node-utils alone is no stall', () => {
    const s = catchingUp()
    const app = log(s, 'fullnode-0', 'app')
    app.text = app.text
      .split('\n')
      .filter((line) => !/committed state|executed block|finalized block/.test(line))
      .join('\n')
    expect(log(s, 'fullnode-0', 'node-utils').text.match(/syncing=true/g)!.length).toBeGreaterThanOrEqual(3)
    expect(runRule(s, 'not-syncing')).toEqual([])
  })

  it('a readiness 417 counts only while the Pod is not Ready and kubelet saw it recently', () => {
    const later = (s: Snapshot) => Date.parse(s.collectedAt) + 10 * MINUTE * 1000
    const readyAgain = load('healthy')
    readinessEvent(readyAgain, findObject(readyAgain, 'Pod', 'fullnode-0'), 417, 45 * MINUTE)
    expect(runRule(readyAgain, 'not-syncing')).toEqual([])

    const oldFailure = load('healthy')
    setReady(findObject(oldFailure, 'Pod', 'fullnode-0'), false)
    readinessEvent(oldFailure, findObject(oldFailure, 'Pod', 'fullnode-0'), 417, 45 * MINUTE)
    expect(runRule(oldFailure, 'not-syncing', later(oldFailure))).toEqual([])

    const failing = load('healthy')
    setReady(findObject(failing, 'Pod', 'fullnode-0'), false)
    readinessEvent(failing, findObject(failing, 'Pod', 'fullnode-0'), 417, 0)
    expect(runRule(failing, 'not-syncing', later(failing))).toHaveLength(1)
  })

  it('healthy `Ensure peers` lines are not peer trouble', () => {
    const s = load('healthy')
    const pod = findObject(s, 'Pod', 'fullnode-0')
    setReady(pod, false)
    readinessEvent(s, pod, 417, 0)
    const [finding] = runRule(s, 'not-syncing', Date.parse(s.collectedAt) + 10 * MINUTE * 1000)
    const appLines = finding.evidence.filter((e) => e.source.endsWith('/app')).map((e) => e.text)
    expect(log(s, 'fullnode-0', 'app').text).toMatch(/Ensure peers.*"numOutPeers":[1-9]/)
    expect(appLines.filter((text) => /Ensure peers/.test(text))).toEqual([])
  })

  it('the not-syncing bundle still shows stuck-0 not catching up', () => {
    const s = load('not-syncing')
    const [finding] = runRule(s, 'not-syncing')
    expect(finding.subject.name).toBe('stuck-0')
    expect(finding.evidence.some((e) => /statuscode: 417/.test(e.text))).toBe(true)
  })
})

describe('block-threshold-unhealthy', () => {
  /** fullnode-0 of the healthy bundle with blockThreshold 60s, its Pod NotReady. */
  function notReadyWithThreshold(): Snapshot {
    const s = load('healthy')
    findObject(s, 'ChainNode', 'fullnode-0').spec.config.blockThreshold = '60s'
    setReady(findObject(s, 'Pod', 'fullnode-0'), false)
    return s
  }
  function nodeUtilsSays(s: Snapshot, lines: string[]): void {
    const nodeUtils = log(s, 'fullnode-0', 'node-utils')
    lines.forEach((line, i) => {
      const stamp = at(s, lines.length - i)
      nodeUtils.text += `${stamp} time="${stamp.slice(0, 19)}Z" ${line}\n`
    })
  }
  const latestBlock = (age: string) => `level=info msg="got latest block" height=33138000 time="2026-11-22T13:19:00Z" threshold=1m0s age=${age}`

  it('a Pod NotReady because node-utils cannot reach the node is not blamed on block age', () => {
    const s = notReadyWithThreshold()
    const unreachable =
      'level=error msg="error getting latest block: rpc error: code = Unavailable desc = dial tcp 127.0.0.1:9090: connect: connection refused"'
    nodeUtilsSays(s, [unreachable, unreachable, unreachable])
    readinessEvent(s, findObject(s, 'Pod', 'fullnode-0'), 500, 0)
    expect(runRule(s, 'block-threshold-unhealthy')).toEqual([])
  })

  it('the newest `got latest block` line decides by its age against the threshold', () => {
    const fresh = notReadyWithThreshold()
    nodeUtilsSays(fresh, [latestBlock('6m40.5s'), latestBlock('2.1s')])
    expect(runRule(fresh, 'block-threshold-unhealthy')).toEqual([])

    const stale = notReadyWithThreshold()
    nodeUtilsSays(stale, [latestBlock('2.1s'), latestBlock('6m40.5s')])
    const [finding] = runRule(stale, 'block-threshold-unhealthy')
    expect(finding.evidence.at(-1)!.text).toMatch(/age=6m40.5s/)
  })

  it('a recent readiness 417 on the NotReady Pod is enough; an old one is not', () => {
    const recent = notReadyWithThreshold()
    readinessEvent(recent, findObject(recent, 'Pod', 'fullnode-0'), 417, 2 * MINUTE)
    expect(runRule(recent, 'block-threshold-unhealthy')).toHaveLength(1)

    const old = notReadyWithThreshold()
    readinessEvent(old, findObject(old, 'Pod', 'fullnode-0'), 417, 45 * MINUTE)
    expect(runRule(old, 'block-threshold-unhealthy')).toEqual([])
  })
})

describe('not-syncing state-sync Events', () => {
  it('lists the operator not restoring from state-sync, not the `not adding state-sync details` noise', () => {
    const s = load('not-syncing')
    const node = findObject(s, 'ChainNode', 'stuck-0')
    node.spec.stateSyncRestore = true
    const event = (name: string, reason: string, message: string) =>
      s.objects.push({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: node.metadata.namespace },
        involvedObject: { kind: 'ChainNode', namespace: node.metadata.namespace, name: 'stuck-0', uid: node.metadata.uid },
        reason,
        type: 'Warning',
        message,
        lastTimestamp: at(s, 30),
      })
    event('noise', 'NoTrustHeight', 'not adding state-sync details: no state-sync snapshots available')
    event('restore', 'NoPeers', 'not restoring from state-sync: could not find other peers for this chain')
    const [finding] = runRule(s, 'not-syncing')
    const stateSync = finding.evidence.filter((e) => e.kind === 'event' && /state-sync/.test(e.text)).map((e) => e.text)
    expect(stateSync).toEqual(['not restoring from state-sync: could not find other peers for this chain'])
  })
})
