import { vocabularyRule } from './vocabulary/vocabulary-rule.js'
import { chainProbeOf } from '../snapshot/chain.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { type ChainNode, type ChainNodeSet, isKind } from '../snapshot/kinds.js'

/** The operator records the snapshot-list Event at every reconcile while it fails: an older one is over. */
const LIST_FRESH_MS = 20 * 60_000
const RESTORE = /^(?:event\/NoPeers|event\/NoTrustHeight-restore|log\/state-sync-)/

const serving = (obj: ChainNode | ChainNodeSet) => isKind(obj, 'ChainNode') && (obj.spec?.config?.stateSync?.snapshotInterval ?? 0) > 0

/** What the node's own chain probe says: its height and whether it catches up, or nothing when it was not probed. */
function probed(index: SnapshotIndex, obj: ChainNode | ChainNodeSet) {
  if (!isKind(obj, 'ChainNode')) return undefined
  return chainProbeOf(index.snapshot, index.podOf(obj))?.chain
}

export default vocabularyRule({
  id: 'state-sync-blocked',
  title: 'State-sync restore cannot be configured, or the node publishes no trust height',
  severity: 'error',
  specRow: 'Operator vocabulary: NoPeers, NoTrustHeight, `not restoring from state-sync` log lines',
  refine: ({ index, obj, hits, now }) => {
    const status = probed(index, obj)?.status
    return hits.filter((hit) => {
      // "no state-sync snapshots available" comes with every reconcile of a node that serves none: only a node
      // configured to serve them has a problem when it cannot publish one.
      if (hit.entry.id === 'event/NoTrustHeight-no-snapshots' || hit.entry.id === 'event/NoTrustHeight-serving') return serving(obj)
      // While the Pod is not up the list cannot be read: the node's start is the story, told by other rules.
      if (hit.entry.id === 'event/NoTrustHeight-list')
        return (!hit.at || now - Date.parse(hit.at) <= LIST_FRESH_MS) && isKind(obj, 'ChainNode') && index.podOf(obj)?.status?.phase === 'Running'
      // A restore the operator could not configure is over once the node is synced (its own /status says so).
      if (RESTORE.test(hit.entry.id) && status && status.height > 0 && !status.catchingUp) return false
      return true
    })
  },
  explain: ({ index, obj, data }) => {
    const facts = probed(index, obj)
    if (!isKind(obj, 'ChainNode')) return undefined
    if (!facts?.status) return `the node's own height was not measured (no chain probe)`
    const { height, catchingUp } = facts.status
    if (RESTORE.test(data.entry))
      return height === 0
        ? 'its own /status: no block yet'
        : `its own /status: height ${height}, catching_up ${catchingUp}: it replays the chain block by block instead of restoring`
    if (data.entry === 'event/NoTrustHeight-list') {
      const utils = facts.nodeUtils
      if (!utils) return `its own /status: height ${height}, catching_up ${catchingUp}`
      return utils.problems.length > 0
        ? `node-utils did not answer our probe either (${utils.problems[0]})`
        : `node-utils answered our probe (latest height ${utils.latestHeight ?? '?'}): the operator's Pod is kept from it (a NetworkPolicy, DNS), or it failed only then`
    }
    if (data.entry === 'event/NoTrustHeight-no-snapshots' && catchingUp)
      return `its own /status: height ${height}, catching_up true: it takes no snapshot before it catches up`
    return `its own /status: height ${height}, catching_up ${catchingUp}`
  },
})
