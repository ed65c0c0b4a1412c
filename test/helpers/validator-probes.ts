/**
 * The validator rules over the healthy bundle's nodes, given chain readings built from what a real
 * 4-validator CometBFT chain answered (test/fixtures/chain-commits): the readings a probe run writes, and
 * the chain's own lines in a node's app log.
 */
import { commitSigners, countSigning, validatorPowers } from '../../src/snapshot/signing.js'
import type { ChainFacts, ProbeRecord, Snapshot } from '../../src/snapshot/types.js'
import { fourValidators, operatorPubKey } from './chain-commits.js'
import { editable, runAllRules } from './bundles.js'
import { currentLog } from './snapshot-edits.js'

/** When the probe run read the chain (the recorded chain's last block time). */
export const PROBE_AT = '2026-11-22T13:20:05.000Z'
const at = PROBE_AT
/** The recorded chain's commits, as the signers of each. */
export const recordedCommits = () => fourValidators.commits.map(commitSigners)

/** fullnode-0 made a validator named `who` of the recorded chain, with its probe record as the live run would write it. */
export function asValidator(snapshot: Snapshot, pod: string, who: string, options: { presents?: string; power?: number; network?: string } = {}): ProbeRecord {
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
    ...countSigning(recordedCommits(), address),
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

/** Every rule on the snapshot at the time of the probe run. */
export const runAtProbe = (snapshot: Snapshot, settings = {}) => runAllRules(snapshot, settings, Date.parse(at))
/** The findings of one rule among all, at the time of the probe run. */
export const findingsAtProbe = (snapshot: Snapshot, id: string, settings = {}) => runAtProbe(snapshot, settings).findings.filter((f) => f.ruleId === id)

/** fullnode-0 logged these lines of the chain at the time of the probe run. */
export function appendAppLines(snapshot: Snapshot, lines: string[]): Snapshot {
  currentLog(snapshot, 'fullnode-0', 'app').text += lines.map((l) => `${at} ${l}\n`).join('')
  return snapshot
}
