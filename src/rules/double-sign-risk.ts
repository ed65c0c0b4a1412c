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

/** Running nodes whose own /status presents `address` with voting power on `network`. */
function presenting(probes: readonly ProbeRecord[], network: string, address: string): ProbeRecord[] {
  return probes.filter(
    (p) => p.kind === 'chain' && p.chain?.status?.network === network && p.chain.validator?.address === address && p.chain.validator.votingPower > 0,
  )
}

export default defineRule<DoubleSign>({
  id: 'double-sign-risk',
  title: 'Two running nodes sign with one validator key',
  severity: 'error',
  specRow: 'Issue 30: two running nodes of one chain present the same validator key with voting power (double-sign, tombstoning)',
  check({ index, node, pod }) {
    const own = chainProbeOf(index.snapshot, pod)
    const key = own?.chain?.validator
    const network = own?.chain?.status?.network
    if (!own || !key || key.votingPower <= 0 || !network) return []
    const all = presenting(index.snapshot.probes, network, key.address)
    if (all.length < 2) return []
    const ordered = [own, ...all.filter((p) => p !== own)]
    const owner = ordered.find((p) => p.chain?.signing?.addressFrom === 'pubKey' && p.chain.signing.address === key.address)
    const evidence: Evidence[] = ordered.map((p) => ({
      kind: 'probe',
      source: `CometBFT RPC /status on ${p.target} in ${p.namespace}`,
      text: `network ${network}, validator_info.address ${p.chain!.validator!.address}, voting_power ${p.chain!.validator!.votingPower}, height ${p.chain!.status!.height}`,
      at: p.chain!.status!.at,
    }))
    return [
      {
        subject: refOf(node),
        data: {
          address: key.address,
          network,
          votingPower: key.votingPower,
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
