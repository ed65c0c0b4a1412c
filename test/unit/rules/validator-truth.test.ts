/**
 * The validator rules over the healthy bundle's nodes, given chain readings built from what a real
 * 4-validator CometBFT chain answered (test/fixtures/chain-commits): missed blocks, not in the active set,
 * double-sign risk, a dead RPC folded to one line, and the chain's own failure lines.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import { commitSigners, countSigning, validatorPowers } from '../../../src/snapshot/signing.js'
import type { ChainFacts, ProbeRecord, Snapshot } from '../../../src/snapshot/types.js'
import { renderStatusText } from '../../../src/render/status.js'
import { fourValidators, operatorPubKey } from '../../helpers/chain-commits.js'
import { statusRows } from '../../../src/analysis/status-model.js'
import { editable, findObject, loadBundle, runAllRules } from '../../helpers/bundles.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
let healthy: Snapshot
beforeAll(async () => {
  healthy = await loadBundle('healthy')
})

const at = '2026-11-22T13:20:05.000Z'
const commits = () => fourValidators.commits.map(commitSigners)

/** fullnode-0 made a validator named `who` of the recorded chain, with its probe record as the live run would write it. */
function asValidator(snapshot: Snapshot, pod: string, who: string, options: { presents?: string; power?: number; network?: string } = {}): ProbeRecord {
  const node = editable(snapshot).find((o) => o.kind === 'ChainNode' && o.metadata.name === pod)!
  node.spec.validator = { info: { moniker: who } }
  node.status.pubKey = operatorPubKey(fourValidators.genesis[who].pub_key)
  const address = fourValidators.genesis[who].address
  const chain: ChainFacts = {
    problems: [],
    status: { at, height: 13, blockTime: at, catchingUp: false, earliestHeight: 1, network: options.network ?? 'kvstore-record-1', nodeId: 'x' },
    validator: { address: options.presents ?? address, votingPower: options.power ?? 10 },
  }
  const powers = validatorPowers([fourValidators.validators])
  chain.signing = {
    at,
    address,
    addressFrom: 'pubKey',
    source: `pod/${pod}:26657`,
    window: 100,
    ...countSigning(commits(), address),
    votingPower: powers.get(address) ?? 0,
    inActiveSet: (powers.get(address) ?? 0) > 0,
    requests: 11,
    problems: [],
  }
  const record: ProbeRecord = {
    kind: 'chain',
    namespace: node.metadata.namespace!,
    pod,
    target: `pod/${pod}:26657`,
    ok: true,
    detail: 'height 13, moving',
    at,
    chain,
  }
  snapshot.probes.push(record)
  return record
}

const run = (snapshot: Snapshot, settings = {}) => runAllRules(snapshot, settings, Date.parse(at))
const findingsOf = (snapshot: Snapshot, id: string, settings = {}) => run(snapshot, settings).findings.filter((f) => f.ruleId === id)

describe('validator-missed-blocks on commits of a real chain', () => {
  it('the validator that signs every block: no finding', () => {
    const snapshot = structuredClone(healthy)
    asValidator(snapshot, 'fullnode-0', 'val-0')
    expect(findingsOf(snapshot, 'validator-missed-blocks')).toEqual([])
  })

  it('the validator whose process runs another key: an error with the window, the first miss, and the key it runs with', () => {
    const snapshot = structuredClone(healthy)
    asValidator(snapshot, 'fullnode-0', 'val-3', { presents: fourValidators.wrongKey.address, power: 0 })
    const [finding] = findingsOf(snapshot, 'validator-missed-blocks')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toBe(
      `missed 10 of the last 10 blocks (heights 3-12; first missed 3 at ${fourValidators.commits[0].signed_header.header.time}); node synced`,
    )
    expect(finding.cause).toContain(
      `the process signs with ${fourValidators.wrongKey.address} (its /status validator_info), not with the ChainNode's key ${fourValidators.genesis['val-3'].address}`,
    )
    expect(finding.since).toBe(fourValidators.commits[0].signed_header.header.time)
    expect(finding.evidence[0].text).toMatch(/signed 0 of 10 commits \(heights 3-12\), missed 3, 4, 5/)
  })

  it('thresholds are flags: 6 of 10 missed is a warning by default, an error with --missed-blocks-error 6, nothing with --missed-blocks-warning 7', () => {
    const snapshot = structuredClone(healthy)
    const record = asValidator(snapshot, 'fullnode-0', 'val-0')
    // val-0's votes taken out of the first six recorded commits: absent, as a late vote would be.
    const address = fourValidators.genesis['val-0'].address
    const thinned = commits().map((c: any, i: number) => (i < 6 ? { ...c, signers: new Set([...c.signers].filter((a) => a !== address)) } : c))
    Object.assign(record.chain!.signing!, countSigning(thinned, address))
    const [warning] = findingsOf(snapshot, 'validator-missed-blocks')
    expect(warning.severity).toBe('warning')
    expect(warning.summary).toMatch(/^missed 6 of the last 10 blocks \(heights 3-12; first missed 3 at /)
    expect(findingsOf(snapshot, 'validator-missed-blocks', { missedBlocks: { warning: 5, error: 6 } })[0].severity).toBe('error')
    expect(findingsOf(snapshot, 'validator-missed-blocks', { missedBlocks: { warning: 7, error: 20 } })).toEqual([])
  })

  it('a key absent from /validators is "not in the active set"', () => {
    const snapshot = structuredClone(healthy)
    const record = asValidator(snapshot, 'fullnode-0', 'val-0')
    Object.assign(record.chain!.signing!, { inActiveSet: false, votingPower: 0 })
    const [finding] = findingsOf(snapshot, 'validator-missed-blocks')
    expect(finding.summary).toBe(`validator ${fourValidators.genesis['val-0'].address} is not in the active set (voting power 0)`)
    expect(finding.severity).toBe('error')
  })
})

describe('double-sign-risk', () => {
  it('two running nodes of one chain presenting one key with power: an error on each, first in the report', () => {
    const snapshot = structuredClone(healthy)
    asValidator(snapshot, 'hub-fullnodes-0', 'val-1')
    asValidator(snapshot, 'hub-fullnodes-1', 'val-1')
    // An error on a node whose name sorts first does not come before it.
    snapshot.logs.find((l) => l.pod === 'fullnode-0' && l.container === 'app' && !l.previous)!.text += `${at} CONSENSUS FAILURE!!! err=boom\n`
    const report = run(snapshot)
    expect(report.findings.some((f) => f.ruleId === 'consensus-failure' && f.node.name === 'fullnode-0')).toBe(true)
    const found = report.findings.filter((f) => f.ruleId === 'double-sign-risk')
    expect(found.map((f) => f.node.name).sort()).toEqual(['hub-fullnodes-0', 'hub-fullnodes-1'])
    expect(found[0].summary).toMatch(new RegExp(`^2 running nodes sign as validator ${fourValidators.genesis['val-1'].address} on kvstore-record-1`))
    expect(report.findings[0].ruleId).toBe('double-sign-risk')
  })

  it('a standby at height 0 reports power 0 for the key: the power the chain gives that key counts', () => {
    const snapshot = structuredClone(healthy)
    asValidator(snapshot, 'hub-fullnodes-0', 'val-1')
    const standby = asValidator(snapshot, 'hub-fullnodes-1', 'val-1', { power: 0 })
    standby.chain!.status!.height = 0
    const found = findingsOf(snapshot, 'double-sign-risk')
    expect(found).toHaveLength(2)
    expect(found.find((f) => f.node.name === 'hub-fullnodes-0')!.evidence[1].text).toMatch(/voting_power 0 \(10 in the chain's validator set\), height 0$/)
  })

  it('another chain, or a key without voting power, is no risk', () => {
    const snapshot = structuredClone(healthy)
    asValidator(snapshot, 'hub-fullnodes-0', 'val-1')
    asValidator(snapshot, 'hub-fullnodes-1', 'val-1', { network: 'other-1' })
    expect(findingsOf(snapshot, 'double-sign-risk')).toEqual([])
    const zero = structuredClone(healthy)
    asValidator(zero, 'hub-fullnodes-0', 'val-1')
    const other = asValidator(zero, 'hub-fullnodes-1', 'val-1', { power: 0 })
    other.chain!.signing!.votingPower = 0
    expect(findingsOf(zero, 'double-sign-risk')).toEqual([])
  })
})

describe('rpc-unreachable', () => {
  /** The healthy bundle, with fullnode-0's chain probe failed for this reason. */
  const withFailedProbe = (detail: string) => {
    const snapshot = structuredClone(healthy)
    snapshot.probes.push({
      kind: 'chain',
      namespace: 'sc-healthy',
      pod: 'fullnode-0',
      target: 'pod/fullnode-0:26657',
      ok: false,
      detail,
      at,
      chain: { problems: [detail] },
    })
    return snapshot
  }
  const refused =
    '/status on 26657: error forwarding port 26657 to pod 1b8f, uid : failed to execute portforward in network namespace "/var/run/netns/cni-1": dial tcp4 127.0.0.1:26657: connect: connection refused'
  it('a Running node whose RPC refuses: a finding with the reason in one line, and <error: refused> in status -o wide', () => {
    const snapshot = withFailedProbe(refused)
    const [finding] = findingsOf(snapshot, 'rpc-unreachable')
    expect(finding.summary).toBe('RPC pod/fullnode-0:26657 does not answer: /status on 26657: connection refused')
    expect(finding.severity).toBe('warning')
    const node = run(snapshot).nodes.find((n) => n.node.name === 'fullnode-0')!
    expect(node.chain).toMatchObject({ ok: false, reason: 'refused' })
    const index = new SnapshotIndex(snapshot)
    const table = renderStatusText(index, statusRows(index), { withNamespace: false, wide: true })
    expect(table.split('\n').find((l) => l.startsWith('fullnode-0'))).toMatch(/<error: refused>/)
  })

  it('a port-forward that could not be set up says nothing about the RPC: no finding, the line stays under "Measured"', () => {
    const noForward =
      '/status on 26657: error forwarding port 26657 to pod fullnode-0/sc-healthy, uid : forward not found for port 26657 in pod "sc-healthy/fullnode-0"'
    const snapshot = withFailedProbe(noForward)
    expect(findingsOf(snapshot, 'rpc-unreachable')).toEqual([])
  })
})

describe('chain failure lines in the app log', () => {
  function withAppLines(lines: string[]): Snapshot {
    const snapshot = structuredClone(healthy)
    const log = snapshot.logs.find((l) => l.pod === 'fullnode-0' && l.container === 'app' && !l.previous)!
    log.text += lines.map((l) => `${at} ${l}\n`).join('')
    return snapshot
  }
  it('CONSENSUS FAILURE! and a wrong app hash: one error, the app hash first', () => {
    const snapshot = withAppLines([
      'E[2026-11-22|13:20:04.000] CONSENSUS FAILURE!!!                         module=consensus err="+2/3 committed an invalid block: wrong Block.Header.AppHash.  Expected 6B7C, got 1A2B"',
    ])
    const [finding] = findingsOf(snapshot, 'consensus-failure')
    expect(finding.summary).toBe('the app computed another state than the chain (wrong app hash)')
    expect(finding.evidence[0].text).toMatch(/CONSENSUS FAILURE!!!/)
    expect(findingsOf(withAppLines(['I[2026-11-22|13:20:04.000] executed block height=9 appHash=6B7C']), 'consensus-failure')).toEqual([])
  })

  it('UPGRADE NEEDED: the name, the height and whether an image is set for it', () => {
    const line = 'ERR UPGRADE "v17" NEEDED at height: 1200: {"binaries":{}} module=x/upgrade'
    const [finding] = findingsOf(withAppLines([line]), 'upgrade-needed')
    expect(finding.summary).toBe('upgrade "v17" needed at height 1200: no image is set for it')
    expect(finding.evidence[0].text).toBe(line)
    const planned = withAppLines([line])
    const node = findObject(planned, 'ChainNode', 'fullnode-0')
    node.spec.app.upgrades = [{ height: 1200, image: 'ghcr.io/cosmos/gaia:v17.0.0' }]
    expect(findingsOf(planned, 'upgrade-needed')[0].summary).toBe('upgrade "v17" needed at height 1200: image ghcr.io/cosmos/gaia:v17.0.0 is set for it')
    node.spec.app.image = 'ghcr.io/cosmos/gaia:v17.0.0'
    expect(findingsOf(planned, 'upgrade-needed')).toEqual([])
  })
})
