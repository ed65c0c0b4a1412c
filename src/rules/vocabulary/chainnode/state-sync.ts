import { editNode, type VocabularyEntry } from '../entry.js'

/** What the ChainNode controller says in configmap.go, service.go (cosmopilot internal/controllers/chainnode/): state-sync, trust height and the snapshots it restores from. */
export const STATE_SYNC: readonly VocabularyEntry[] = [
  {
    id: 'event/NoPeers',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'NoPeers',
    pattern: /^not restoring from state-sync: could not find other peers/,
    template: 'not restoring from state-sync: could not find other peers for this chain',
    rule: 'state-sync-blocked',
    severity: 'error',
    cause:
      'the node asks for a state-sync restore (.spec.stateSyncRestore) but no other Ready node of the chain (a Service labelled peer=true with its chain-id) is there to restore from',
    action:
      'Bring up (or make Ready) another node of the same chain in the cluster: kubectl get svc -A -l peer=true,chain-id=<chain> ; or turn .spec.stateSyncRestore off and restore otherwise (' +
      editNode +
      ').',
    clearedBy: ['NodeStateSyncing', 'NodeRunning', 'NodeSyncing'],
  },
  {
    id: 'event/NoTrustHeight-restore',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'NoTrustHeight',
    pattern: /^not restoring from state-sync: no chainnode with valid trust height/,
    template: 'not restoring from state-sync: no chainnode with valid trust height config is available',
    rule: 'state-sync-blocked',
    severity: 'error',
    cause:
      'peers exist but none publishes a trust height: no node of the chain serves state-sync snapshots (.spec.config.stateSync.snapshotInterval), or none has taken one yet',
    action:
      'Enable .spec.config.stateSync.snapshotInterval on a synced node of the chain and wait for its first snapshot (its <name>-internal Service gains the state-sync-trust-height annotation): kubectl get svc -n {namespace} -l peer=true -o yaml | grep trust-height',
    clearedBy: ['NodeStateSyncing', 'NodeRunning', 'NodeSyncing'],
  },
  {
    id: 'log/state-sync-no-peers',
    kind: 'ChainNode',
    channel: 'log',
    pattern: /^not restoring from state-sync: could not find other peers/,
    template: 'not restoring from state-sync: could not find other peers for this chain (info line, configmap.go)',
    rule: 'state-sync-blocked',
    severity: 'error',
    cause:
      'the node asks for a state-sync restore (.spec.stateSyncRestore) but no other working node of the chain (a Service labelled peer=true with its chain-id) is there to restore from',
    action:
      'Bring up (or make Ready) another node of the same chain in the cluster: kubectl get svc -A -l peer=true,chain-id=<chain> ; or turn .spec.stateSyncRestore off and restore otherwise (' +
      editNode +
      ').',
  },
  {
    id: 'log/state-sync-no-trust-height',
    kind: 'ChainNode',
    channel: 'log',
    pattern: /^not restoring from state-sync: no chainnode with valid trust height/,
    template: 'not restoring from state-sync: no chainnode with valid trust height config is available (info line, configmap.go)',
    rule: 'state-sync-blocked',
    severity: 'error',
    cause: 'peers exist but none publishes a trust height: no node of the chain serves state-sync snapshots, or none has taken one yet',
    action:
      'Enable .spec.config.stateSync.snapshotInterval on a synced node of the chain and wait for its first snapshot (its <name>-internal Service gains the state-sync-trust-height annotation): kubectl get svc -n {namespace} -l peer=true -o yaml | grep trust-height',
  },
  {
    id: 'event/NoTrustHeight-list',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'NoTrustHeight',
    pattern: /^not adding state-sync details: failed to list state-sync snapshots for (?<node>\S+): (?<error>.*)/,
    template: 'not adding state-sync details: failed to list state-sync snapshots for <node>: <error>',
    rule: 'state-sync-blocked',
    severity: 'warning',
    cause:
      "the operator cannot read the node's state-sync snapshot list from node-utils (:8000 /snapshots): it publishes no trust height for this node, so no other node can state-sync from it, and what else it reads there (data usage, height) is stale too",
    action:
      'Check node-utils on the node (kubectl chainnode logs {object} -n {namespace} -c node-utils; the Pod Ready) and that no NetworkPolicy keeps the operator out of {namespace}.',
  },
  {
    id: 'event/NoTrustHeight-no-snapshots',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'NoTrustHeight',
    pattern: /^not adding state-sync details: no state-sync snapshots available/,
    template: 'not adding state-sync details: no state-sync snapshots available',
    rule: 'state-sync-blocked',
    severity: 'warning',
    cause:
      'the node is configured to serve state-sync snapshots (.spec.config.stateSync.snapshotInterval) but has taken none yet: peers restoring from it find no trust height (on a node that serves none this Event is routine noise and is not reported)',
    action:
      'Check that the node takes snapshots: .spec.config.stateSync.snapshotInterval, and node-utils /snapshots (kubectl chainnode logs {object} -n {namespace} -c node-utils); the first snapshot comes only after snapshotInterval blocks.',
  },
  {
    id: 'event/NoTrustHeight-no-hashes',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'NoTrustHeight',
    pattern: /^not adding state-sync details: no valid state-sync snapshot heights with retrievable block hashes/,
    template: 'not adding state-sync details: no valid state-sync snapshot heights with retrievable block hashes',
    rule: 'state-sync-blocked',
    severity: 'warning',
    cause:
      'the node has state-sync snapshots but cannot serve the block at any of their heights (pruned below them: min-retain-blocks or pruning keep fewer blocks than the snapshots span): no trust height is published',
    action:
      'Keep the blocks of the snapshot heights: raise min-retain-blocks in app.toml (or pruning keep-recent) above snapshot-keep-recent × snapshotInterval (.spec.config.override of {object}); kubectl chainnode logs {object} -n {namespace} -c node-utils',
  },
  {
    id: 'event/NoTrustHeight-hash',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'NoTrustHeight',
    pattern: /^not adding state-sync details: failed to (?:get block hash at height (?<height>\d+)|get chain node client) for (?<node>\S+?):? (?<error>.*)/,
    template: 'not adding state-sync details: failed to get block hash at height <h> for <node>: <error> | failed to get chain node client for <node>: <error>',
    rule: 'state-sync-blocked',
    severity: 'warning',
    cause:
      "the operator cannot read the block hash the trust height needs from the node's RPC (after an upgrade it trusts the first block of the new version): no trust height is published",
    action: 'Check the node answers on RPC 26657 and has the block (kubectl chainnode status {object} -n {namespace} -o wide); the error names the height.',
  },
  {
    id: 'event/NoTrustHeight-serving',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'NoTrustHeight',
    pattern: /^not adding state-sync details: (?<error>.*)/,
    template: 'not adding state-sync details: <any other error>',
    rule: 'state-sync-blocked',
    severity: 'warning',
    cause:
      'the node is configured to serve state-sync snapshots but node-utils lists none it can publish: peers restoring from it find no trust height (on a node that serves none this Event is routine noise and is not reported)',
    action:
      'Check that the node takes snapshots: .spec.config.stateSync.snapshotInterval, and node-utils /snapshots (kubectl chainnode logs {object} -n {namespace} -c node-utils); the first snapshot comes only after snapshotInterval blocks.',
  },
]
