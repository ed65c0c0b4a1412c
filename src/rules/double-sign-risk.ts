import { refOf } from '../snapshot/index.js'
import { chainProbeOf } from '../snapshot/chain.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import type { ProbeRecord } from '../snapshot/types.js'

interface DoubleSign {
  address: string
  network: string
  votingPower: number
  /** Every Pod presenting the key, this node's first ("namespace/pod"). */
  pods: string[]
  /** The ChainNode meant to sign with it, when one of them has it as .status.pubKey's address (read from its reading). */
  owner?: string
}

/**
 * The voting power of the key a node presents: what its own /status says, or, when the node is not at the
 * tip (a standby at height 0 reports 0), what the chain's validator set says of that key.
 */
function presentedPower(record: ProbeRecord): number {
  const presented = record.chain?.validator
  if (!presented) return 0
  const onChain = record.chain?.signing?.address === presented.address ? (record.chain.signing.votingPower ?? 0) : 0
  return Math.max(presented.votingPower, onChain)
}

/** Running nodes whose own /status presents `address` on `network`, with voting power. */
function presenting(probes: readonly ProbeRecord[], network: string, address: string): ProbeRecord[] {
  return probes.filter((p) => p.kind === 'chain' && p.chain?.status?.network === network && p.chain.validator?.address === address && presentedPower(p) > 0)
}

export default defineRule<DoubleSign>({
  id: 'double-sign-risk',
  title: 'Two running nodes sign with one validator key',
  severity: 'error',
  severityNote: '(reported first: two signers of one key lose the stake)',
  specRow: 'Issue 30: two running nodes of one chain present the same validator key with voting power (double-sign, tombstoning)',
  check({ index, node, pod }) {
    const own = chainProbeOf(index.snapshot, pod)
    const key = own?.chain?.validator
    const network = own?.chain?.status?.network
    if (!own || !key || presentedPower(own) <= 0 || !network) return []
    const all = presenting(index.snapshot.probes, network, key.address)
    if (all.length < 2) return []
    const ordered = [own, ...all.filter((p) => p !== own)]
    const owner = ordered.find((p) => p.chain?.signing?.addressFrom === 'pubKey' && p.chain.signing.address === key.address)
    const evidence: Evidence[] = ordered.map((p) => ({
      kind: 'probe',
      source: `CometBFT RPC /status on ${p.target} in ${p.namespace}`,
      text: `network ${network}, validator_info.address ${p.chain!.validator!.address}, voting_power ${p.chain!.validator!.votingPower}${p.chain!.validator!.votingPower === 0 ? ` (${presentedPower(p)} in the chain's validator set)` : ''}, height ${p.chain!.status!.height}`,
      at: p.chain!.status!.at,
    }))
    return [
      {
        subject: refOf(node),
        data: {
          address: key.address,
          network,
          votingPower: presentedPower(own),
          pods: ordered.map((p) => `${p.namespace}/${p.pod}`),
          owner: owner && `${owner.namespace}/${owner.pod}`,
        },
        evidence,
      },
    ]
  },
  summary: (d) => `${d.pods.length} running nodes sign as validator ${d.address} on ${d.network} (${d.pods.join(', ')})`,
  cause: (d) =>
    `the same consensus key (voting power ${d.votingPower}) is loaded by ${d.pods.length} processes: a standby started with the primary's key, a copied data volume or Secret, or a remote signer and a local priv_validator_key at once. ` +
    'When both vote at one height the chain records double-sign evidence: the validator is tombstoned and its stake slashed',
  action: (d) => {
    const others = d.owner ? d.pods.filter((p) => p !== d.owner) : d.pods.slice(1)
    const [ns, pod] = (others[0] ?? d.pods[0]).split('/')
    return (
      `Stop the node that should not sign first${d.owner ? ` (${d.owner} holds the key as its ChainNode's .status.pubKey; stop ${others.join(', ')})` : ''}: ` +
      `kubectl -n ${ns} delete pod ${pod} stops it only until it is recreated, so replace its priv_validator_key (or remove its signer) before it restarts; ` +
      'then confirm on the chain that only one signs (chainnode doctor --signing-window 100).'
    )
  },
})
