import { chainProbeOf } from '../snapshot/chain.js'
import { keyHoldersOf, type KeyHolders } from '../analysis/key-holders.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import type { ObjectRef } from '../snapshot/types.js'

const refTo = (node: string): ObjectRef => {
  const [namespace, name] = node.split('/')
  return { kind: 'ChainNode', namespace, name }
}

/**
 * One finding per key, whichever holder it is found from: its subject is the ChainNode to stop (or, when the
 * evidence cannot tell, the first holder by name), so the run keeps it once and names every holder.
 */
export default defineRule<KeyHolders>({
  id: 'double-sign-risk',
  title: 'Two running nodes sign with one validator key',
  severity: 'error',
  severityNote: '(reported first: two signers of one key lose the stake)',
  specRow: 'Issue 30: two running nodes of one chain present the same validator key with voting power (double-sign, tombstoning)',
  check({ index, node, pod }) {
    const own = chainProbeOf(index.snapshot, pod)
    const found = own && keyHoldersOf(index, own)
    if (!found) return []
    const self = `${node.metadata.namespace}/${node.metadata.name}`
    const evidence: Evidence[] = found.holders.map((h) => ({
      kind: 'probe',
      source: `CometBFT RPC /status on ${h.target} in ${h.node.split('/')[0]}`,
      text:
        `network ${found.network}, validator_info.address ${found.address}, height ${h.height}; ` +
        (h.known
          ? `ChainNode created ${h.created ?? '(unknown)'}, ${h.managed ? 'the key is its .status.pubKey' : 'not managed as that validator'}`
          : 'its ChainNode was not read'),
      at: h.at,
    }))
    if (found.lastSigned !== undefined)
      evidence.push({
        kind: 'probe',
        source: `the chain's last commits`,
        text: `${found.address} last signed height ${found.lastSigned}, voting power ${found.votingPower}`,
      })
    return [
      {
        subject: refTo(found.stop[0] ?? found.holders[0].node),
        data: found,
        evidence,
        alsoFor: found.holders.filter((h) => h.node !== self).map((h) => refTo(h.node)),
        // One key is one incident, every holder in it, whichever node of the run found it.
        incident: `validator key ${found.address} on ${found.network}`,
        since: bothRunningSince(found),
      },
    ]
  },
  summary: (d) => `${d.holders.length} running nodes present validator key ${d.address} on ${d.network}: ${d.holders.map((h) => h.node).join(', ')}`,
  cause: (d) =>
    `the same consensus key (voting power ${d.votingPower}) is loaded by ${d.holders.length} processes: a standby started with the primary's key, a copied data volume or Secret, or a remote signer and a local priv_validator_key at once. ` +
    'When both vote at one height the chain records double-sign evidence: the validator is tombstoned and its stake slashed' +
    (d.searched ? `. Other holders were ${d.searched}` : ''),
  action: (d) => {
    const [checkNs, checkName] = (d.keep ?? d.holders[0].node).split('/')
    const recreate =
      'deleting its Pod stops it only until the operator recreates it, so replace its priv_validator_key (or remove its signer) before it restarts; ' +
      `then confirm on the chain that one process signs: kubectl chainnode doctor ${checkName} -n ${checkNs}`
    if (!d.keep)
      return `Cannot tell which of ${d.holders.map((h) => h.node).join(', ')} should keep signing: ${d.why}. Stop every one that is not meant to be this validator now: ${recreate}.`
    const [ns, name] = d.stop[0].split('/')
    return `Stop ${d.stop.join(', ')}; ${d.keep} keeps signing (${d.why}). kubectl -n ${ns} delete pod ${name}: ${recreate}.`
  },
})

/** The risk began when the last holder's chain container started: until then fewer processes held the key. Unknown when any start is. */
function bothRunningSince(found: KeyHolders): string | undefined {
  const starts = found.holders.map((h) => (h.started === undefined ? NaN : Date.parse(h.started)))
  if (starts.some(Number.isNaN)) return undefined
  return new Date(Math.max(...starts)).toISOString()
}
