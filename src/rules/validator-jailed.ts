import { refOf, type SnapshotIndex } from '../snapshot/index.js'
import type { ChainNode, Pod } from '../snapshot/kinds.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { compareText } from '../util/compare.js'
import { byReason, matchingEvents, eventTime } from '../snapshot/events.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { stakingEvidence } from '../analysis/chain-evidence.js'
import { chainProbeOf } from '../snapshot/chain.js'
import { humanAge } from '../util/duration.js'

interface Data {
  node: string
  namespace: string
  /** jailed: the chain jailed it; unbonded: out of the active set without being jailed; stale: the operator says jailed, the chain does not. */
  state: 'jailed' | 'unbonded' | 'stale'
  bondStatus?: string
  /** Where "jailed" was read: the chain itself (staking, signing info), the status the operator refreshes while Running, or only the Event. */
  readFrom: 'chain' | 'status' | 'event'
  /** When the chain lets it unjail (signing info jailed_until), and how far that was from the reading. */
  jailedUntil?: string
  jailLeftMs?: number
  /** The operator's .status.jailed against the chain's answer: agrees, disagrees, or absent. */
  operatorSays?: boolean
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
const rule = defineRule<Data>({
  id: 'validator-jailed',
  title: 'Validator jailed or out of the active set',
  severity: 'error',
  severityNote: 'when jailed; warning when only unbonded or unbonding',
  specRow:
    'Operator vocabulary: ValidatorJailed Event, .status.jailed, .status.validatorStatus unbonded/unbonding; issue 41: staking jailed and jailed_until read from the chain',
  // A tombstoned validator is jailed for good: validator-tombstoned says so, not an ordinary jailing.
  suppressedBy: ['validator-tombstoned'],
  check({ index, node, pod }) {
    const chain = chainReading(index, node, pod)
    if (chain) return chain
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
    d.state === 'stale'
      ? `the operator says validator ${d.valoper ?? d.node} is jailed; the chain says it is not (${d.bondStatus ?? 'status unknown'})`
      : d.state === 'jailed'
        ? `validator ${d.valoper ?? d.node} is jailed${d.bondStatus ? ` (${d.bondStatus})` : ''}${d.jailedUntil ? `${d.jailLeftMs ? `; it may unjail in ${humanAge(d.jailLeftMs)}` : '; its jail time is over'} (jailed_until ${d.jailedUntil})` : ''}`
        : `validator ${d.valoper ?? d.node} is ${d.bondStatus}: out of the active set`,
  cause: (d) =>
    d.state === 'stale'
      ? ".status.jailed is true but the chain's staking record says not jailed: the operator has not refreshed its status since the validator was unjailed"
      : d.readFrom === 'chain'
        ? `the chain jailed the validator (its staking record: jailed, ${d.bondStatus ?? 'status unknown'}; read over abci_query): it signs no blocks and earns nothing until unjailed; ${
            d.operatorSays === undefined
              ? 'the operator has not written .status.jailed'
              : d.operatorSays
                ? '.status.jailed agrees'
                : ".status.jailed says false: the operator's status disagrees with the chain (not refreshed yet)"
          }. Downtime (missed blocks) jails for a while; a double sign tombstones it for good`
        : d.state === 'jailed'
          ? `the chain jailed the validator (read from ${d.readFrom === 'status' ? '.status.jailed' : `the ValidatorJailed Event; .status is not refreshed in phase ${d.phase ?? '<none>'}`}): it signs no blocks and earns nothing until unjailed. Downtime (missed blocks) jails for a while; a double-sign tombstones it for good`
          : 'the validator is not jailed but not bonded either: its stake is below the active set, or it is unbonding',
  action: (d) => {
    const chain = d.chainId ? ` --chain-id ${d.chainId}` : ''
    if (d.state === 'stale')
      return `Nothing to do on the chain; the operator refreshes .status.jailed while the node is Running (kubectl chainnode doctor ${d.node} -n ${d.namespace}).`
    return d.state === 'jailed'
      ? `First fix why it stopped signing, or it is jailed again: the node must be Running and caught up with its signer connected (kubectl chainnode doctor ${d.node} -n ${d.namespace}; kubectl chainnode signer ${d.node} -n ${d.namespace}). Check it is not tombstoned (${d.binary} query slashing signing-info $(${d.binary} tendermint show-validator)${chain}). Then, once the jail time has passed${d.jailedUntil ? ` (${d.jailedUntil})` : ''}, send the unjail from the validator's account (its key is in Secret ${d.node}-account): ${d.binary} tx slashing unjail --from <validator account>${chain}`
      : `Check the validator's stake against the active set (${d.binary} query staking validator ${d.valoper ?? '<valoper>'}${chain}); delegate more stake if it fell out of the set.`
  },
})

/** The chain's own answer (staking jailed and status, signing info jailed_until), when the Cosmos probe read it. */
function chainReading(index: SnapshotIndex, node: ChainNode, pod: Pod | undefined) {
  const cosmos = chainProbeOf(index.snapshot, pod)?.chain?.cosmos
  const staking = cosmos?.validator?.staking
  if (!node.spec?.validator || !cosmos || !staking) return undefined
  const status: NonNullable<ChainNode['status']> = node.status ?? {}
  const operatorSays = typeof status.jailed === 'boolean' ? status.jailed : undefined
  const unbonded = staking.status === 'unbonded' || staking.status === 'unbonding'
  if (!staking.jailed && !unbonded && operatorSays !== true) return []
  const info = cosmos.validator!.signingInfo
  const jailLeftMs = info?.jailedUntil ? Math.max(0, Date.parse(info.jailedUntil) - Date.parse(cosmos.at)) : undefined
  const state: Data['state'] = staking.jailed ? 'jailed' : operatorSays ? 'stale' : 'unbonded'
  const evidence: Evidence[] = [...stakingEvidence(cosmos, cosmos.validator!), field(node, '.status.jailed', status.jailed)]
  return [
    {
      subject: refOf(node),
      severity: state === 'jailed' ? ('error' as const) : state === 'stale' ? ('info' as const) : ('warning' as const),
      data: {
        node: node.metadata.name,
        namespace: node.metadata.namespace ?? 'default',
        state,
        bondStatus: staking.status,
        readFrom: 'chain' as const,
        jailedUntil: staking.jailed ? info?.jailedUntil : undefined,
        jailLeftMs: staking.jailed ? jailLeftMs : undefined,
        operatorSays,
        phase: status.phase,
        binary: node.spec?.app?.app ?? '<app>',
        chainId: status.chainID,
        valoper: cosmos.validator!.valoper ?? status.validatorAddress,
      },
      evidence,
    },
  ]
}

export default rule
