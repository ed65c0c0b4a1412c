import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { findObject, runRule, useBundles } from '../../helpers/bundles.js'
import { currentLog, MINUTE, readinessEvent, secondsBefore, setReady } from '../../helpers/snapshot-edits.js'

const load = useBundles('healthy', 'not-syncing')

/** fullnode-0 of the healthy bundle, phase Syncing, node-utils answering syncing=true as a catching-up node's does. */
function catchingUp(): Snapshot {
  const s = load('healthy')
  findObject(s, 'ChainNode', 'fullnode-0').status.phase = 'Syncing'
  const nodeUtils = currentLog(s, 'fullnode-0', 'node-utils')
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
    const app = currentLog(s, 'fullnode-0', 'app')
    app.text = app.text
      .split('\n')
      .filter((line) => !/committed state|executed block|finalized block/.test(line))
      .join('\n')
    expect(currentLog(s, 'fullnode-0', 'node-utils').text.match(/syncing=true/g)!.length).toBeGreaterThanOrEqual(3)
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
    expect(currentLog(s, 'fullnode-0', 'app').text).toMatch(/Ensure peers.*"numOutPeers":[1-9]/)
    expect(appLines.filter((text) => /Ensure peers/.test(text))).toEqual([])
  })

  it('the not-syncing bundle still shows stuck-0 not catching up', () => {
    const s = load('not-syncing')
    const [finding] = runRule(s, 'not-syncing')
    expect(finding.subject.name).toBe('stuck-0')
    expect(finding.evidence.some((e) => /statuscode: 417/.test(e.text))).toBe(true)
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
        lastTimestamp: secondsBefore(s, 30),
      })
    event('noise', 'NoTrustHeight', 'not adding state-sync details: no state-sync snapshots available')
    event('restore', 'NoPeers', 'not restoring from state-sync: could not find other peers for this chain')
    const [finding] = runRule(s, 'not-syncing')
    const stateSync = finding.evidence.filter((e) => e.kind === 'event' && /state-sync/.test(e.text)).map((e) => e.text)
    expect(stateSync).toEqual(['not restoring from state-sync: could not find other peers for this chain'])
  })
})
