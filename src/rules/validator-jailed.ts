import { refOf } from '../snapshot/index.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { compareText } from '../util/compare.js'
import { byReason, matchingEvents, eventTime } from '../snapshot/events.js'
import { eventEvidence, field } from '../engine/evidence.js'

interface Data {
  node: string
  namespace: string
  /** jailed: the chain jailed it; unbonded: out of the active set without being jailed. */
  state: 'jailed' | 'unbonded'
  bondStatus?: string
  /** Where "jailed" was read: the status the operator refreshes while Running, or only the Event (status stale or absent). */
  readFrom: 'status' | 'event'
  phase?: string
  binary: string
  chainId?: string
  valoper?: string
}

/**
 * The operator refreshes .status.jailed and .status.validatorStatus from the chain only while the node is
 * Running, and records ValidatorJailed / ValidatorUnjailed when the flag flips: the status decides while it is
 * fresh; otherwise the latest of the two Events does.
 */
export default defineRule<Data>({
  id: 'validator-jailed',
  title: 'Validator jailed or out of the active set',
  severity: 'error',
  severityNote: 'when jailed; warning when only unbonded or unbonding',
  specRow: 'Operator vocabulary: ValidatorJailed Event, .status.jailed, .status.validatorStatus unbonded/unbonding',
  check({ index, node }) {
    const status = node.status ?? {}
    const phase: string | undefined = status.phase
    const flips = matchingEvents(index, node, byReason('ValidatorJailed', 'ValidatorUnjailed')).sort((a, b) => compareText(eventTime(a), eventTime(b)))
    const lastFlip = flips.at(-1)
    const statusFresh = phase === 'Running' && typeof status.jailed === 'boolean'
    const jailedByStatus = status.jailed === true
    const jailedByEvent = lastFlip?.reason === 'ValidatorJailed'
    const jailed = statusFresh ? jailedByStatus : jailedByStatus || jailedByEvent
    const bondStatus: string | undefined = typeof status.validatorStatus === 'string' ? status.validatorStatus : undefined
    const unbonded = bondStatus === 'unbonded' || bondStatus === 'unbonding'
    if (!jailed && !unbonded) return []
    const evidence: Evidence[] = [
      field(node, '.status.jailed', status.jailed),
      field(node, '.status.validatorStatus', bondStatus),
      ...(status.validatorAddress ? [field(node, '.status.validatorAddress', status.validatorAddress)] : []),
      ...(phase !== 'Running' ? [field(node, '.status.phase', phase)] : []),
      ...flips.slice(-3).map(eventEvidence),
    ]
    return [
      {
        subject: refOf(node),
        severity: jailed ? 'error' : 'warning',
        data: {
          node: node.metadata.name,
          namespace: node.metadata.namespace ?? 'default',
          state: jailed ? 'jailed' : 'unbonded',
          bondStatus,
          readFrom: jailedByStatus || !jailed ? 'status' : 'event',
          phase,
          binary: node.spec?.app?.app ?? '<app>',
          chainId: status.chainID,
          valoper: status.validatorAddress,
        },
        evidence,
        ...(jailed && lastFlip?.reason === 'ValidatorJailed' ? { since: eventTime(lastFlip) } : {}),
      },
    ]
  },
  summary: (d) =>
    d.state === 'jailed'
      ? `validator ${d.valoper ?? d.node} is jailed${d.bondStatus ? ` (${d.bondStatus})` : ''}`
      : `validator ${d.valoper ?? d.node} is ${d.bondStatus}: out of the active set`,
  cause: (d) =>
    d.state === 'jailed'
      ? `the chain jailed the validator (read from ${d.readFrom === 'status' ? '.status.jailed' : `the ValidatorJailed Event; .status is not refreshed in phase ${d.phase ?? '<none>'}`}): it signs no blocks and earns nothing until unjailed. Downtime (missed blocks) jails for a while; a double-sign tombstones it for good`
      : 'the validator is not jailed but not bonded either: its stake is below the active set, or it is unbonding',
  action: (d) => {
    const chain = d.chainId ? ` --chain-id ${d.chainId}` : ''
    return d.state === 'jailed'
      ? `First fix why it stopped signing, or it is jailed again: the node must be Running and caught up with its signer connected (kubectl chainnode doctor ${d.node} -n ${d.namespace}; kubectl chainnode signer ${d.node} -n ${d.namespace}). Check it is not tombstoned (${d.binary} query slashing signing-info $(${d.binary} tendermint show-validator)${chain}). Then, once the jail time has passed, send the unjail from the validator's account (its key is in Secret ${d.node}-account): ${d.binary} tx slashing unjail --from <validator account>${chain}`
      : `Check the validator's stake against the active set (${d.binary} query staking validator ${d.valoper ?? '<valoper>'}${chain}); delegate more stake if it fell out of the set.`
  },
})
