import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { companionCase, findObject, objectsOf, runRule, useBundles } from '../../helpers/bundles.js'
import { currentLog, MINUTE, readinessEvent, secondsBefore, setReady } from '../../helpers/snapshot-edits.js'

const load = useBundles('healthy')

describe('block-threshold-unhealthy', () => {
  /** fullnode-0 of the healthy bundle with blockThreshold 60s, its Pod NotReady. */
  function notReadyWithThreshold(): Snapshot {
    const s = load('healthy')
    findObject(s, 'ChainNode', 'fullnode-0').spec.config.blockThreshold = '60s'
    setReady(findObject(s, 'Pod', 'fullnode-0'), false)
    return s
  }
  function nodeUtilsSays(s: Snapshot, lines: string[]): void {
    const nodeUtils = currentLog(s, 'fullnode-0', 'node-utils')
    lines.forEach((line, i) => {
      const stamp = secondsBefore(s, lines.length - i)
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

companionCase(
  'block-threshold-unhealthy',
  'not-syncing',
  () => undefined,
  (s) => (objectsOf(s, 'ChainNode')[0].spec.config.blockThreshold = '0s'),
)
