/**
 * snapshot/chain-log.ts consensusStuckAbove over real CometBFT logs (test/fixtures/chain-logs, kubelet timestamps in
 * front): what a node's own log says of the height above the one its RPC reported.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { consensusStuckAbove } from '../../src/snapshot/chain-log.js'
import { linesOf } from '../../src/snapshot/log-lines.js'
import { ROOT } from '../helpers/cli.js'

const log = (name: string) => linesOf(readFileSync(path.join(ROOT, 'test', 'fixtures', 'chain-logs', name), 'utf8'))

describe('consensus stuck above the height read', () => {
  it('a halted full node: timed out at the next height from its first timeout past NewHeight on, the last line kept', () => {
    const stuck = consensusStuckAbove(log('comet-plain-halted-fullnode.log'), 5)
    expect(stuck).toMatchObject({ height: 6, since: '2026-11-25T01:31:45.304644107Z' })
    expect(stuck!.text).toMatch(/^I\[\S+\] Timed out\s+module=consensus .*height=6 round=\d+ step=RoundStep(?!NewHeight)/)
    expect(Date.parse(stuck!.at)).toBeGreaterThanOrEqual(Date.parse(stuck!.since))
  })

  it('a halted validator: the same, round after round', () => {
    const lines = log('comet-plain-halted-validator.log')
    const height = Math.max(...lines.flatMap((l) => (/committed state .*height=(\d+)/.exec(l.text)?.slice(1) ?? []).map(Number)))
    expect(consensusStuckAbove(lines, height)).toMatchObject({ height: height + 1 })
  })

  it('a reading older than the log: a commit above the height read means the node moved, whatever timed out', () => {
    expect(consensusStuckAbove(log('comet-plain-halted-fullnode.log'), 4)).toBeUndefined()
  })

  it('a healthy node: every height times out only at NewHeight before it commits', () => {
    const lines = log('comet-plain-healthy.log')
    const last = Math.max(...lines.flatMap((l) => (/committed state .*height=(\d+)/.exec(l.text)?.slice(1) ?? []).map(Number)))
    expect(consensusStuckAbove(lines, last)).toBeUndefined()
  })

  it('lines without a time say nothing of how long', () => {
    const untimed = log('comet-plain-halted-fullnode.log').map(({ text }) => ({ text }))
    expect(consensusStuckAbove(untimed, 5)).toBeUndefined()
  })
})
