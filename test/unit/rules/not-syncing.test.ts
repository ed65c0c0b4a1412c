import { beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { runRules } from '../../../src/engine/run-rules.js'
import { chainLogSignals } from '../../../src/analysis/chain-logs.js'
import { parseChainLine } from '../../../src/snapshot/chain-log.js'
import { RULES } from '../../../src/rules/index.js'
import { onsetOf, type Rule } from '../../../src/engine/define-rule.js'
import { describeMovement, movementOf } from '../../../src/snapshot/chain.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { ChainFacts, Snapshot } from '../../../src/snapshot/types.js'
import { ROOT } from '../../helpers/cli.js'
import { findObject, loadBundle, runRule, useBundles } from '../../helpers/bundles.js'
import { currentLog, failedChainProbe, MINUTE, readinessEvent, secondsBefore, setReady } from '../../helpers/snapshot-edits.js'

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

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'chain-logs')
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8')
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => ({ at: line.slice(0, line.indexOf(' ')), text: line.slice(line.indexOf(' ') + 1) }))
const lastTime = (text: string) => Date.parse(lines(text).at(-1)!.at)
const notSyncing = RULES.find((r) => r.id === 'not-syncing') as unknown as Rule

describe('chain log lines in the three formats CometBFT-based chains write', () => {
  it('reads CometBFT plain, CometBFT JSON and the Cosmos SDK zerolog console format alike', () => {
    const plain = parseChainLine({
      text: 'I[2026-11-25|01:33:09.599] Ensure peers                                 module=pex numOutPeers=1 numInPeers=0 numDialing=0 numToDial=9',
    })
    const json = parseChainLine({
      text: '{"_msg":"Ensure peers","level":"info","module":"pex","numDialing":0,"numInPeers":0,"numOutPeers":1,"numToDial":9,"ts":"2026-11-25T01:32:08Z"}',
    })
    const zerolog = parseChainLine({
      text: '\x1b[90m12:39PM\x1b[0m \x1b[32mINF\x1b[0m Ensure peers module=pex numDialing=0 numInPeers=0 numOutPeers=1 numToDial=9',
    })
    for (const entry of [plain, json, zerolog]) {
      expect(entry).toMatchObject({ level: 'info', msg: 'Ensure peers', fields: { module: 'pex', numOutPeers: '1', numInPeers: '0' } })
    }
    expect(
      parseChainLine({
        text: 'I[2026-11-25|01:20:35.380] Error reconnecting to peer. Trying again     module=p2p tries=0 err="dial tcp 127.0.0.1:38756: connect: connection refused"',
      })?.fields.err,
    ).toBe('dial tcp 127.0.0.1:38756: connect: connection refused')
    expect(parseChainLine({ text: 'time="2026-11-25T01:00:00Z" level=info msg="node is ready"' })).toBeUndefined()
  })

  it.each(['comet-json-no-peers.log', 'sdk-zerolog-no-peers.log'])('%s: zero peers, nothing to dial, no seed answers', (name) => {
    const text = fixture(name)
    const signals = chainLogSignals(lines(text), 'log', lastTime(text) + 1000)
    expect(signals.progressing).toBe(false)
    expect(signals.zeroPeers?.text).toMatch(/Ensure peers/)
    expect(signals.nothingToDial?.text).toMatch(/No addresses to dial/)
    expect(signals.seedsUnreachable?.text).toMatch(/Couldn't connect to any seeds/)
  })

  it.each(['comet-plain-halted-fullnode.log', 'comet-plain-halted-validator.log'])('%s: a consensus timeout at a height never committed', (name) => {
    const text = fixture(name)
    const signals = chainLogSignals(lines(text), 'log', lastTime(text) + 1000)
    expect(signals.progressing).toBe(false)
    expect(signals.consensusStuck?.text).toMatch(/Timed out .*step=RoundStepPropose/)
    expect(signals.zeroPeers).toBeUndefined()
  })

  it('a node producing blocks is progressing, even with a dial failure among its lines', () => {
    const healthy = lines(fixture('comet-plain-healthy.log'))
    healthy.splice(-30, 0, ...lines(fixture('comet-plain-dial-failure.line')).map((l) => ({ ...l, at: healthy.at(-30)!.at })))
    const signals = chainLogSignals(healthy, 'log', Date.parse(healthy.at(-1)!.at) + 2000)
    expect(signals).toEqual({ progressing: true, zeroPeers: undefined, nothingToDial: undefined, seedsUnreachable: undefined, consensusStuck: undefined })
  })
})

describe('not-syncing on the node fullnode-0 of the healthy bundle, with a chain log or a chain measurement', () => {
  let healthy: Snapshot
  beforeAll(async () => {
    healthy = await loadBundle('healthy')
  })

  /** The healthy bundle's fullnode-0 with its app log replaced by a recorded one, read a second after its last line. */
  function withAppLog(text: string, phase = 'Running'): Snapshot {
    const snapshot = structuredClone(healthy)
    const log = snapshot.logs.find((l) => l.pod === 'fullnode-0' && l.container === 'app' && !l.previous)!
    log.text = text
    snapshot.collectedAt = new Date(lastTime(text) + 1000).toISOString()
    findObject(snapshot, 'ChainNode', 'fullnode-0').status.phase = phase
    return snapshot
  }
  const fired = (snapshot: Snapshot) => runRules(new SnapshotIndex(snapshot), [notSyncing]).findings.filter((f) => f.node.name === 'fullnode-0')

  it.each(['comet-json-no-peers.log', 'sdk-zerolog-no-peers.log', 'comet-plain-halted-fullnode.log'])(
    'fires on the chain log %s alone (no Events, no probe)',
    (name) => {
      const [finding] = fired(withAppLog(fixture(name)))
      expect(finding.ruleId).toBe('not-syncing')
      expect(finding.evidence.some((e) => e.kind === 'log' && e.source === 'log of fullnode-0/app')).toBe(true)
    },
  )

  it('stays clean on a healthy chain log with a dial failure', () => {
    const text =
      fixture('comet-plain-healthy.log').trimEnd() +
      '\n' +
      fixture('comet-plain-dial-failure.line').replace(/^\S+/, lines(fixture('comet-plain-healthy.log')).at(-1)!.at)
    expect(fired(withAppLog(text))).toEqual([])
  })

  const at = (ms: number) => new Date(Date.parse('2026-11-25T02:00:00Z') + ms).toISOString()
  const withFacts = (facts: ChainFacts, text = fixture('comet-plain-healthy.log')) => {
    const snapshot = withAppLog(text)
    snapshot.probes.push({
      kind: 'chain',
      namespace: 'sc-healthy',
      pod: 'fullnode-0',
      target: 'pod/fullnode-0:26657',
      ok: true,
      detail: '',
      at: at(0),
      chain: facts,
    })
    return snapshot
  }
  const status = (height: number, blockAgeMs: number, catchingUp = false) => ({
    at: at(0),
    height,
    blockTime: at(-blockAgeMs),
    catchingUp,
    earliestHeight: 1,
    network: 'kvstore-1',
    nodeId: 'ab'.repeat(20),
  })
  const peers = (total: number) => ({ at: at(10), total, inbound: 0, outbound: total, list: [] })

  it('fires on a measured stalled height, with the two readings and the peers as evidence', () => {
    const facts: ChainFacts = {
      status: status(9, 90_000),
      resample: { at: at(3000), height: 9, blockTime: at(-90_000), catchingUp: false },
      peers: peers(1),
      problems: [],
    }
    const [finding] = fired(withFacts(facts))
    expect(finding.summary).toBe(`height not advancing: stalled at 9 since ${at(-90_000)}, 1 peer(s)`)
    expect(finding.evidence.filter((e) => e.kind === 'probe').map((e) => e.source)).toEqual([
      'CometBFT RPC /status',
      'CometBFT RPC /status',
      'CometBFT RPC /net_info',
    ])
    expect(finding.cause).toMatch(/chain itself may have halted/)
    // The stall began with the last block, 90 s before the probe that measured it.
    expect(onsetOf(finding)).toBe(at(-90_000))
  })

  it('a measured moving height overrides a log that looks stuck', () => {
    expect(fired(withFacts({ status: status(500, 1000), peers: peers(0), problems: [] }, fixture('comet-json-no-peers.log')))).toEqual([])
  })

  it('catching up at a measured rate is syncing; zero peers with an old block and no second reading is not', () => {
    const catchingUp: ChainFacts = {
      status: status(100, 3_600_000, true),
      resample: { at: at(3000), height: 160, blockTime: at(-3_500_000), catchingUp: true },
      problems: [],
    }
    expect(describeMovement(movementOf(catchingUp))).toBe('catching up at 20 blocks/s')
    expect(fired(withFacts(catchingUp))).toEqual([])
    const [finding] = fired(withFacts({ status: status(100, 3_600_000, true), peers: peers(0), problems: ['/status on 26657: no answer within 5s'] }))
    expect(finding.cause).toMatch(/no peer/)
    expect(finding.evidence.map((e) => e.text)).toContain('/status on 26657: no answer within 5s')
  })

  it('a probe without an answer falls back to the logs and says the measurement is missing', () => {
    const snapshot = withAppLog(fixture('comet-json-no-peers.log'))
    snapshot.probes.push(failedChainProbe('connection refused', at(0)))
    const [finding] = fired(snapshot)
    expect(finding.evidence.find((e) => e.kind === 'probe')?.text).toBe('no measurement: connection refused')
  })

  it('state-sync: names the RPC servers that do not answer or disagree on the trust hash', () => {
    const snapshot = withFacts({
      status: status(0, 0, true),
      resample: { at: at(3000), height: 0, catchingUp: true },
      stateSync: {
        trustHeight: 1000,
        trustHash: 'AA11',
        servers: [
          { url: 'http://a-internal:26657', at: at(0), latestHeight: 5000, hashAtTrustHeight: 'BB22' },
          { url: 'http://b-internal:26657', at: at(0), problem: '/status on 26657: connection refused' },
        ],
      },
      problems: [],
    })
    findObject(snapshot, 'ChainNode', 'fullnode-0').spec.stateSyncRestore = true
    const [finding] = fired(snapshot)
    expect(finding.cause).toMatch(/http:\/\/a-internal:26657, http:\/\/b-internal:26657/)
    expect(finding.evidence.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        'http://a-internal:26657: height 5000, hash at 1000 BB22 (differs from trust_hash)',
        'http://b-internal:26657 not reachable: /status on 26657: connection refused',
      ]),
    )
  })
})
