import { chainProbeOf } from '../snapshot/chain.js'
import { commitsEvidence, syncState } from '../analysis/chain-evidence.js'
import { refOf } from '../snapshot/index.js'
import { defineRule, type Evidence, type Severity } from '../engine/define-rule.js'
import type { SigningReading } from '../snapshot/types.js'
import { field } from '../engine/evidence.js'

export const DEFAULT_MISSED_BLOCKS = { warning: 5, error: 20 }

interface MissedBlocks {
  kind: 'missed' | 'inactive' | 'not-counted'
  address: string
  addressFrom: SigningReading['addressFrom']
  /** The RPC the commits came from, and whether it is the node's own. */
  source: string
  ownRpc: boolean
  window: number
  counted: number
  signed: number
  missed: number
  fromHeight?: number
  toHeight?: number
  firstMissed?: { height: number; time?: string }
  lastSigned?: { height: number; time?: string }
  votingPower?: number
  /** What the node's own /status says: 'synced', 'catching up', 'stalled', 'unknown' or 'no answer'. */
  nodeState: string
  /** The key the process presents in /status when it is not the ChainNode's .status.pubKey. */
  signsWith?: string
  jailed: boolean
  problem?: string
  thresholds: { warning: number; error: number }
}

export default defineRule<MissedBlocks>({
  id: 'validator-missed-blocks',
  title: 'Validator misses blocks or is not in the active set',
  severity: 'error',
  severityNote: '(warning below `--missed-blocks-error`; info when the commits could not be read)',
  specRow: 'Issue 30: a validator misses blocks in the last commits of its chain, or is not in the active set',
  check({ index, node, pod, settings }) {
    if (!node.spec?.validator) return []
    const probe = chainProbeOf(index.snapshot, pod)
    const facts = probe?.chain
    const reading = facts?.signing
    if (!facts || !reading) return []
    const thresholds = settings?.missedBlocks ?? DEFAULT_MISSED_BLOCKS
    const own = facts.validator?.address
    const data: MissedBlocks = {
      kind: 'missed',
      address: reading.address,
      addressFrom: reading.addressFrom,
      source: reading.source,
      ownRpc: reading.source === probe.target,
      window: reading.window,
      counted: reading.counted,
      signed: reading.signed,
      missed: reading.missed,
      fromHeight: reading.fromHeight,
      toHeight: reading.toHeight,
      firstMissed: reading.firstMissed,
      lastSigned: reading.lastSigned,
      votingPower: reading.votingPower,
      nodeState: syncState(facts),
      signsWith: own && own !== reading.address ? own : undefined,
      jailed: node.status?.jailed === true,
      thresholds,
    }
    const evidence: Evidence[] = [commitsEvidence(reading)]
    if (reading.addressFrom === 'pubKey') evidence.push(field(node, '.status.pubKey', node.status?.pubKey))
    if (facts.validator)
      evidence.push({
        kind: 'probe',
        source: `CometBFT RPC /status on ${probe.target}`,
        text: `validator_info.address ${facts.validator.address}, voting_power ${facts.validator.votingPower}`,
        at: facts.status?.at,
      })
    let severity: Severity
    if (reading.inActiveSet === false) {
      data.kind = 'inactive'
      severity = 'error'
      evidence.push({
        kind: 'probe',
        source: `CometBFT RPC /validators via ${reading.source}`,
        text: `${reading.address} is not in the validator set at height ${reading.toHeight ?? '?'}`,
        at: reading.at,
      })
      if (data.jailed) evidence.push(field(node, '.status.jailed', true))
    } else if (reading.counted === 0) {
      // A chain that answered but gave no commit: cannot tell, and say why.
      if (!reading.source || reading.problems.length === 0) return []
      data.kind = 'not-counted'
      data.problem = reading.problems[0]
      severity = 'info'
      // Signing none of a short window (a young chain, a small --signing-window) is as bad as it gets.
    } else if (reading.missed >= thresholds.error || (reading.signed === 0 && reading.missed >= thresholds.warning)) severity = 'error'
    else if (reading.missed >= thresholds.warning) severity = 'warning'
    else return []
    return [{ subject: refOf(node), data, evidence, severity, since: data.kind === 'missed' ? reading.firstMissed?.time : undefined }]
  },
  summary: (d) =>
    d.kind === 'inactive'
      ? `validator ${d.address} is not in the active set (voting power ${d.votingPower ?? 0})${d.jailed ? ', jailed' : ''}`
      : d.kind === 'not-counted'
        ? `cannot tell whether the validator signs: ${d.problem}`
        : `missed ${d.missed} of the last ${d.counted} blocks (heights ${d.fromHeight}-${d.toHeight}; first missed ${d.firstMissed?.height}${d.firstMissed?.time ? ` at ${d.firstMissed.time}` : ''}); node ${d.nodeState}`,
  cause: (d) =>
    [
      d.signsWith
        ? `the process signs with ${d.signsWith} (its /status validator_info), not with the ChainNode's key ${d.address}: the node runs with another priv_validator_key`
        : '',
      d.kind === 'inactive'
        ? d.jailed
          ? 'the validator is jailed: a jailed validator leaves the active set (see validator-jailed for why)'
          : 'its consensus key has no voting power at the top of the window: unbonded, jailed, below the active set, or the key is not the one registered on chain'
        : d.kind === 'not-counted'
          ? `the commits could not be read from ${d.source}`
          : d.nodeState === 'synced'
            ? d.signed === 0
              ? 'the node is synced but none of its votes made it into a commit: a wrong key, a remote signer that does not sign, or votes that arrive too late'
              : 'the node is synced but some of its votes did not make it into commits: late votes (slow disk or CPU, network) or a signer that misses some requests'
            : `the node is ${d.nodeState}: a validator that is not at the tip cannot sign`,
      d.kind === 'missed' && d.missed >= d.thresholds.error ? `at or above ${d.thresholds.error} missed of ${d.counted} (--missed-blocks-error)` : '',
    ]
      .filter(Boolean)
      .join('; '),
  action: (d) =>
    [
      d.signsWith
        ? "Check which key the node runs with: its priv_validator_key (or remote signer) must hold the ChainNode's .status.pubKey"
        : d.kind === 'inactive'
          ? 'Check the validator on chain (<app> query staking validator <valoper>): jailed, unbonded or below the active set'
          : d.kind === 'not-counted'
            ? `Read the node's RPC by hand: kubectl port-forward ${d.source.replace(/:\d+$/, '')} 26657 and curl 'localhost:26657/commit'`
            : d.nodeState === 'synced'
              ? 'Check the signer (chainnode signer) and the app log for late prevotes/precommits'
              : 'Bring the node to the tip first (see not-syncing)',
      d.kind === 'missed' ? 'watch the count fall on the next runs (chainnode doctor --signing-window 100)' : '',
    ]
      .filter(Boolean)
      .join('; ') + '.',
})
