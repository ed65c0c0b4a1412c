import type { Severity } from '../../engine/define-rule.js'
import type { RuleId } from '../../engine/rule-ids.js'

/**
 * The operator's failure vocabulary: every Warning Event, returned reconcile error, error-level log line,
 * phase and status field by which cosmopilot's ChainNode and ChainNodeSet controllers say something is
 * wrong, read from the operator's source at OPERATOR_VERSION (internal/controllers/**). Written in our own
 * words: the message as a pattern, where the operator writes it, what it means and what to do. Diff a new
 * operator release against this list (docs/operator-vocabulary.md is generated from it).
 */
export const OPERATOR_VERSION = 'cosmopilot v3.0.0'

/** Where the operator writes it. */
export type Channel =
  /** a core/v1 Event recorded on the ChainNode or ChainNodeSet (source chainnode-controller / chainnodeset-controller) */
  | 'event'
  /** an error a Reconcile returns: controller-runtime logs it as `"msg":"Reconciler error"` with the `error` field, and records no Event */
  | 'reconcile-error'
  /** a logger.Error line inside a reconcile that goes on: `"level":"error"`, the entry's text in `msg` */
  | 'error-log'
  /** a logger.Info line inside a reconcile that says it skipped something it was asked to do (state-sync restore) */
  | 'log'
  /** a status field or phase of the object */
  | 'status'

export interface VocabularyEntry {
  /** Stable id: `<channel>/<reason or short name>`. */
  id: string
  /** The kind the operator writes it on (or about). */
  kind: 'ChainNode' | 'ChainNodeSet'
  channel: Channel
  /** The Event reason (channel event). */
  reason?: string
  /** The message (Event), error (reconcile-error), msg (error-log) or `field = value` (status) as a pattern; named groups fill the action. */
  pattern: RegExp
  /** The message as the operator writes it, with <placeholders>. */
  template: string
  /** The rule that turns it into a finding. */
  rule: RuleId
  severity: Severity
  /** What is wrong, for the on-call engineer. */
  cause: string
  /** What to do; {node} {namespace} {kind} {object} {set} {operator} {operatorNamespace} {operatorName} and the pattern's named groups are filled in. */
  action: string
  /** Later Event reasons on the same object that say the trouble is over. */
  clearedBy?: readonly string[]
}

const describe = 'kubectl describe {kind} {object} -n {namespace}'
const operatorLog = 'kubectl logs -n {operatorNamespace} deploy/{operatorName} -c manager | grep {object}'
const editNode = 'kubectl edit {kind} {object} -n {namespace}'
const GENESIS_CLEARED = ['GenesisImported', 'GenesisCreated']

/** With webhooks disabled both controllers validate in Reconcile: an Invalid Event, then an error line, then the bare error returned. */
function invalidSpec(kind: VocabularyEntry['kind'], prefix: string, blocked: string): VocabularyEntry[] {
  const common = { kind, rule: 'spec-invalid', severity: 'error', action: `Fix the spec as the error says: ${editNode}` } as const
  return [
    {
      ...common,
      id: `${prefix}event/Invalid`,
      channel: 'event',
      reason: 'Invalid',
      pattern: /^spec is invalid: (?<error>.*)/,
      template: 'spec is invalid: <error>',
      cause: `the operator validates the spec itself (webhooks disabled) and refuses it: ${blocked}`,
    },
    {
      ...common,
      id: `${prefix}error-log/spec-invalid`,
      channel: 'error-log',
      pattern: /^spec is invalid$/,
      template: 'spec is invalid (error: <error>); the Reconciler error that follows carries the bare <error>',
      cause: 'the operator validates the spec itself (webhooks disabled) and refuses it',
    },
  ]
}

/** Every entry, ChainNode first, then ChainNodeSet; the order docs/operator-vocabulary.md lists them in. */
export const VOCABULARY: readonly VocabularyEntry[] = [
  // ---- validator (validator.go) ----
  {
    id: 'event/ValidatorJailed',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'ValidatorJailed',
    pattern: /^Validator is jailed/,
    template: 'Validator is jailed',
    rule: 'validator-jailed',
    severity: 'error',
    cause: 'the chain jailed the validator: it no longer signs blocks or earns rewards',
    action: 'unjail',
    clearedBy: ['ValidatorUnjailed'],
  },
  {
    id: 'status/jailed',
    kind: 'ChainNode',
    channel: 'status',
    pattern: /^\.status\.jailed = true$/,
    template: '.status.jailed = true',
    rule: 'validator-jailed',
    severity: 'error',
    cause: 'the on-chain validator record says jailed',
    action: 'unjail',
  },
  {
    id: 'status/validatorStatus',
    kind: 'ChainNode',
    channel: 'status',
    pattern: /^\.status\.validatorStatus = "(?<bond>unbonded|unbonding)"$/,
    template: '.status.validatorStatus = unbonded | unbonding',
    rule: 'validator-jailed',
    severity: 'warning',
    cause: 'the validator is out of the active set (not bonded): it does not sign',
    action: 'unjail',
  },
  {
    id: 'event/FailedCreateValidator',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'FailedCreateValidator',
    pattern: /^failed to create-validator: (?<error>.*)/,
    template: 'failed to create-validator: <error>',
    rule: 'validator-setup-failing',
    severity: 'error',
    cause: 'the create-validator transaction the operator submits for .spec.validator.createValidator fails',
    action: `Read the chain's answer in the message (usually funds, gas or an existing validator); fund the account in Secret {object}-account or fix .spec.validator.createValidator (${editNode}).`,
    clearedBy: ['CreateValidatorSuccess'],
  },
  {
    id: 'reconcile-error/validator-not-found',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /^validator not found$/,
    template: 'validator not found',
    rule: 'validator-setup-failing',
    severity: 'error',
    cause: "the node's consensus key is not in the chain's validator set: no create-validator went through for it, or the key is not the registered one",
    action:
      'Compare .status.pubKey of {object} with the validator registered on chain (<app> query staking validators); submit create-validator or restore the registered key in Secret {object}-priv-key.',
  },
  {
    id: 'reconcile-error/consensus-key-secret-missing',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /(?:^|: )secrets? "(?<secret>[^"]*(?:priv-key|consensus-key|priv-validator|privval)[^"]*)" not found/i,
    template:
      'Secret "<name>-priv-key" not found, or the Secret .spec.validator.privateKeySecret names, whatever its name (the manager\'s cache words the NotFound with the kind, the API server as secrets "…"; bare or wrapped)',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: "the validator's consensus key Secret does not exist: the node cannot sign blocks, and the operator cannot verify or reserve its key, until it does",
    action:
      'Create Secret {secret} in {namespace} with priv_validator_key.json holding the consensus key registered on chain (kubectl create secret generic {secret} -n {namespace} --from-file=priv_validator_key.json=<file>); never a new key for a registered validator.',
  },
  {
    id: 'reconcile-error/account-secret-missing',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /(?:failed to get account secret: |(?:^|: ))secrets? "(?<secret>[^"]*account[^"]*)" not found/i,
    template: 'failed to get account secret: secrets "<name>-account" not found',
    rule: 'validator-setup-failing',
    severity: 'error',
    cause: "the validator's account Secret (its mnemonic) does not exist: the operator cannot build the genesis or submit create-validator until it does",
    action:
      'Create Secret {secret} in {namespace} with the account mnemonic (kubectl create secret generic {secret} -n {namespace} --from-literal=mnemonic=<mnemonic>), or fix .spec.validator (accountMnemonicSecret).',
  },
  // ---- storage (pvc.go) ----
  {
    id: 'event/PvcMaxSizeReached',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'PvcMaxSizeReached',
    pattern: /^Data volume reached maximum allowed size \((?<max>[^)]*)\)/,
    template: 'Data volume reached maximum allowed size (<max>)',
    rule: 'data-volume-full',
    severity: 'error',
    cause: 'the data volume has reached .spec.persistence.autoResizeMaxSize and cannot grow further: the node stops when the disk is full',
    action: 'volume',
  },
  {
    id: 'status/dataUsage',
    kind: 'ChainNode',
    channel: 'status',
    pattern: /^\.status\.dataUsage = "(?<usage>9[5-9]|\d{3,})%"$/,
    template: '.status.dataUsage = <95% or more>',
    rule: 'data-volume-full',
    severity: 'error',
    cause: 'the data volume is nearly full',
    action: 'volume',
  },
  {
    id: 'reconcile-error/resize-pvc',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /failed to resize PVC (?<pvc>\S+):/,
    template: 'failed to resize PVC <pvc>: <api error>',
    rule: 'pvc-not-growing',
    severity: 'error',
    cause: 'the API server refuses the larger size request of the data PVC',
    action: 'Use a storage class with allowVolumeExpansion: true.',
  },
  {
    id: 'event/DataInitFailed',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'DataInitFailed',
    pattern: /^Data initialization pod failed: (?<detail>.*)/,
    template: 'Data initialization pod failed: <container>: <reason | exit code n | pod message | unknown>',
    rule: 'data-init-failing',
    severity: 'error',
    cause:
      'the data init Pod ({object}-init-data: snapshot download or .spec.persistence.additionalInitCommands) fails; the operator deletes it and retries every 10 s',
    action:
      'Read the failing container of the next attempt: kubectl logs -n {namespace} {object}-init-data --all-containers; fix .spec.persistence.additionalInitCommands (or the snapshot URL they fetch), or raise .spec.persistence.initTimeout.',
    clearedBy: ['DataInitialized'],
  },
  {
    id: 'reconcile-error/create-pvc',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /failed to (?:create|update) PVC (?<pvc>\S+): (?<error>.*)/,
    template: 'failed to create PVC <name>: <api error>',
    rule: 'reconcile-failing',
    severity: 'error',
    cause: 'the API server refuses a PVC of the node (the error names why: quota, storage class)',
    action: 'api',
  },
  // ---- state-sync (configmap.go, service.go) ----
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
  // ---- upgrades (pod.go, upgrades.go) ----
  {
    id: 'event/UpgradeMissingData',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'UpgradeMissingData',
    pattern: /^Missing upgrade or image for upgrade at height (?<height>\d+)/,
    template: 'Missing upgrade or image for upgrade at height <height>',
    rule: 'upgrade-blocked',
    severity: 'error',
    cause: 'the chain reached an upgrade height and halted, but the operator has no scheduled upgrade with an image for that height',
    action: 'upgrade',
    clearedBy: ['UpgradeCompleted', 'NodeRestarted'],
  },
  {
    id: 'reconcile-error/missing-upgrade',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /missing upgrade or image for height (?<height>\d+)/,
    template: 'missing upgrade or image for height <height>',
    rule: 'upgrade-blocked',
    severity: 'error',
    cause: 'the chain reached an upgrade height and halted, but the operator has no scheduled upgrade with an image for that height',
    action: 'upgrade',
  },
  {
    id: 'event/UpgradeFailed',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'UpgradeFailed',
    pattern: /^Failed to restart for upgrade: (?<error>.*)/,
    template: 'Failed to restart for upgrade: <error>',
    rule: 'upgrade-blocked',
    severity: 'error',
    cause: 'the operator could not replace the Pod with the upgrade image',
    action: `Read the error and the new Pod (kubectl describe pod {object} -n {namespace}); check the upgrade image in .spec.upgrades (${editNode}).`,
    clearedBy: ['UpgradeCompleted'],
  },
  {
    id: 'event/NodeError-upgrade',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'NodeError',
    pattern: /^Pod failed to start after upgrade: (?<error>.*)/,
    template: 'Pod failed to start after upgrade: <cause>',
    rule: 'upgrade-blocked',
    severity: 'error',
    cause: 'the Pod with the upgrade image does not start (phase Error): the image or its upgrade height may be wrong',
    action: `Read the previous logs of the app container (kubectl chainnode logs {object} -n {namespace} --previous) and check the image and height in .status.upgrades against the chain's upgrade plan (${editNode}).`,
    clearedBy: ['NodeRestarted', 'NodeRunning', 'UpgradeCompleted'],
  },
  {
    id: 'error-log/upgrade-plans',
    kind: 'ChainNode',
    channel: 'error-log',
    pattern: /^could not retrieve upgrade plans$/,
    template: 'could not retrieve upgrade plans (error: <grpc error>)',
    rule: 'upgrade-blocked',
    severity: 'warning',
    cause:
      "the operator cannot query the chain's governance upgrade plans over gRPC (9090): an on-chain upgrade will not be scheduled, and the node will halt at its height without an image",
    action: 'Check gRPC on the node (port 9090 in app.toml, the Pod Ready) and the error; or set the upgrade by hand in .spec.app.upgrades. ' + operatorLog,
  },
  // ---- genesis (genesis.go) ----
  {
    id: 'event/GenesisError-url',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'GenesisError',
    pattern: /^Failed to download genesis from URL: (?<error>.*)/,
    template: 'Failed to download genesis from URL: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the operator cannot download the genesis from .spec.genesis.url (unreachable, wrong checksum in .spec.genesis.genesisSHA256, not a genesis)',
    action: 'genesis',
    clearedBy: GENESIS_CLEARED,
  },
  {
    id: 'event/GenesisError-rpc',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'GenesisError',
    pattern: /^Failed to retrieve genesis from RPC node: (?<error>.*)/,
    template: 'Failed to retrieve genesis from RPC node: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the operator cannot read the genesis from the RPC node in .spec.genesis.fromNodeRPC',
    action: 'genesis',
    clearedBy: GENESIS_CLEARED,
  },
  {
    id: 'event/GenesisError-configmap',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'GenesisError',
    pattern: /^Failed to load genesis from ConfigMap: (?<error>.*)/,
    template: 'Failed to load genesis from ConfigMap: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the operator cannot load the genesis from the ConfigMap in .spec.genesis.configMap (missing, or no genesis.json key)',
    action: 'genesis',
    clearedBy: GENESIS_CLEARED,
  },
  {
    id: 'reconcile-error/genesis-url',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /failed to retrieve genesis from URL (?<url>\S+): (?<error>.*)/,
    template: 'failed to retrieve genesis from URL <url>: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the operator cannot download the genesis from .spec.genesis.url',
    action: 'genesis',
  },
  {
    id: 'reconcile-error/genesis-rpc',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /failed to retrieve genesis from RPC endpoint (?<url>\S+): (?<error>.*)/,
    template: 'failed to retrieve genesis from RPC endpoint <url>: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the operator cannot read the genesis from the RPC node in .spec.genesis.fromNodeRPC',
    action: 'genesis',
  },
  {
    id: 'reconcile-error/genesis-configmap',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /failed to load genesis from ConfigMap (?<configMap>\S+): (?<error>.*)/,
    template: 'failed to load genesis from ConfigMap <name>: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the operator cannot load the genesis from the ConfigMap in .spec.genesis.configMap',
    action: 'genesis',
  },
  {
    id: 'reconcile-error/genesis-no-method',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /genesis could not be retri[ev]+d using any of the available methods/,
    template: 'genesis could not be retrived using any of the available methods (sic)',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause:
      'the node has no way to obtain a genesis: .spec.genesis sets none of url, fromNodeRPC or configMap, and it does not create one (.spec.validator.init)',
    action: `Set one genesis source in .spec.genesis (url, fromNodeRPC or configMap): ${editNode}`,
  },
  {
    id: 'reconcile-error/genesis-chain-id',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /failed to extract chainID from (?:retrieved )?genesis/,
    template: 'failed to extract chainID from genesis: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the genesis the operator obtained has no readable chain_id: the source serves something else (an HTML page, a truncated file)',
    action: 'genesis',
  },
  {
    id: 'event/InitGenesisFail',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'InitGenesisFail',
    pattern: /^Failed to initialize new genesis: (?<error>.*)/,
    template: 'Failed to initialize new genesis: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the node creates a new genesis (.spec.validator.init) and the genesis Pod ({object}-genesis-init) fails',
    action: 'initGenesis',
    clearedBy: ['GenesisCreated'],
  },
  {
    id: 'reconcile-error/init-genesis',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /failed to (?:initialize|generate new) genesis: (?<error>.*)/,
    template: 'failed to initialize genesis: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the node creates a new genesis (.spec.validator.init) and building it fails',
    action: 'initGenesis',
  },
  {
    id: 'reconcile-error/genesis-accounts',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /failed to get (?:chain node account|account mnemonic secret) (?<what>\S+)|chain node (?<account>\S+) has no account address/,
    template: 'failed to get chain node account <node>: <error> | chain node <node> has no account address',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause:
      'a new genesis lists accounts of other ChainNodes or mnemonic Secrets (.spec.validator.init.chainNodeAccounts / genesisValidators) that do not exist yet',
    action: `Create the ChainNode or Secret the error names in {namespace}, or drop it from .spec.validator.init (${editNode}).`,
  },
  // ---- the node Pod (pod.go) ----
  {
    id: 'reconcile-error/start-timeout',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /timeout waiting for (?:recreated )?container (?<container>\S+) to start in pod (?<pod>\S+)/,
    template: 'timeout waiting for [recreated] container <app> to start in pod <pod>: <error>',
    rule: 'reconcile-failing',
    severity: 'error',
    cause: 'the node Pod the operator created did not start its main container in time',
    action: 'api',
  },
  {
    id: 'event/NodeError',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'NodeError',
    pattern: /^Pod failed to start: (?<error>.*)/,
    template: 'Pod failed to start: <cause>',
    rule: 'node-error',
    severity: 'error',
    cause: 'the main container of a recreated Pod did not start within 5 minutes, or the Pod failed',
    action: 'Describe the Pod and read the previous logs of the main container.',
    clearedBy: ['NodeRestarted', 'NodeRunning', 'NodeSyncing'],
  },
  {
    id: 'status/phase-Error',
    kind: 'ChainNode',
    channel: 'status',
    pattern: /^\.status\.phase = "Error"$/,
    template: '.status.phase = Error',
    rule: 'node-error',
    severity: 'error',
    cause: 'the operator gave up waiting for a recreated Pod',
    action: 'Describe the Pod and read the previous logs of the main container.',
  },
  {
    id: 'status/phase-transitional',
    kind: 'ChainNode',
    channel: 'status',
    pattern: /^\.status\.phase = "(?<phase>InitializingData|InitGenesis|Starting|Restarting|Upgrading|Snapshotting)"$/,
    template: '.status.phase = InitializingData | InitGenesis | Starting | Restarting | Upgrading | Snapshotting (held too long)',
    rule: 'phase-stuck',
    severity: 'error',
    cause: 'the node holds a transitional phase too long',
    action: 'Read the evidence of phase-stuck.',
  },
  {
    id: 'reconcile-error/create-pod',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /failed to (?:re)?create (?:init )?pod(?: (?<pod>\S+))?: (?<error>.*)/,
    template: 'failed to create [init] pod [<name>]: <api error>',
    rule: 'reconcile-failing',
    severity: 'error',
    cause: 'the API server refuses a Pod the operator creates (the error says why: PriorityClass, quota, Pod Security, a policy)',
    action: 'api',
  },
  {
    id: 'reconcile-error/pod-not-deleted',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /timeout waiting for pod (?<pod>\S+) to be deleted|failed waiting for pod (?<pod2>\S+) termination/,
    template: 'timeout waiting for pod <pod> to be deleted: <error> | failed waiting for pod <pod> termination: <error>',
    rule: 'reconcile-failing',
    severity: 'error',
    cause: 'the operator deleted the node Pod to recreate it (phase Restarting) and the old Pod does not go away within 2 minutes',
    action: 'api',
  },
  {
    id: 'reconcile-error/node-unreachable',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /failed to (?:check if node \S+ is syncing|check state-sync status for \S+|get chain node client for \S+|update latest height for \S+|get storage size for \S+)/,
    template: 'failed to check if node <name> is syncing | failed to get chain node client for <name> | failed to get storage size for <name>: <error>',
    rule: 'operator-node-unreachable',
    severity: 'error',
    cause: "the operator cannot query the node's gRPC (9090) or node-utils (8000): the phase, height and data usage it shows are stale",
    action:
      'Check that the node answers on gRPC 9090 and node-utils 8000 (kubectl chainnode logs {object} -n {namespace} -c node-utils; grpc enabled in app.toml) and that no NetworkPolicy shuts the operator out of {namespace}.',
  },
  {
    id: 'reconcile-error/p2p-exposure',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /timeout waiting for (?:LoadBalancer address|NodePort to be available) for service (?<service>\S+)|no address found for nodeport|^no node found$/,
    template:
      'timeout waiting for LoadBalancer address for service <svc> | timeout waiting for NodePort to be available for service <svc> | no address found for nodeport',
    rule: 'operator-node-unreachable',
    severity: 'error',
    cause: 'the P2P Service of .spec.expose gets no external address (no LoadBalancer controller, or no node address for a NodePort)',
    action: 'kubectl describe svc {object}-p2p -n {namespace}; install a LoadBalancer provider or switch .spec.expose.service to NodePort.',
  },
  {
    id: 'reconcile-error/disruption',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /^\d+ pods are unavailable$/,
    template: '<n> pods are unavailable',
    rule: 'operator-node-unreachable',
    severity: 'warning',
    cause: 'the disruption check defers the restart of this node while other nodes with the same disruption labels are unavailable',
    action: 'Bring the unavailable nodes of the chain back first: kubectl get pods -n {namespace} -l chain-id=<chain>; the restart follows.',
  },
  // ---- snapshots and tarball exports (snapshots.go, snapshot_exports.go) ----
  {
    id: 'event/TarballExportError-missing',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'TarballExportError',
    pattern: /^Tarball (?<tarball>\S+) export job not found; (?<then>.*)/,
    template: 'Tarball <name> export job not found; retrying | retry limit reached; remove the export annotations to retry',
    rule: 'snapshot-export-failing',
    severity: 'error',
    cause: 'the upload Job of a tarball export disappeared before finishing (deleted, or garbage-collected)',
    action: 'export',
    clearedBy: ['TarballFinished'],
  },
  {
    id: 'event/TarballExportError-failed',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'TarballExportError',
    pattern: /^Tarball (?<tarball>\S+) export failed; (?<then>.*)/,
    template: 'Tarball <name> export failed; retrying | retry limit reached; remove the export annotations to retry',
    rule: 'snapshot-export-failing',
    severity: 'error',
    cause: 'the upload Job of a tarball export failed (3 attempts at most)',
    action: 'export',
    clearedBy: ['TarballFinished'],
  },
  {
    id: 'event/TarballExportError-other',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'TarballExportError',
    pattern: /^Error on tarball export:? (?<error>.*)/,
    template: 'Error on tarball export <error>',
    rule: 'snapshot-export-failing',
    severity: 'error',
    cause: 'the operator cannot start or follow a tarball export',
    action: 'export',
    clearedBy: ['TarballFinished'],
  },
  {
    id: 'event/TarballDeleteError-retained',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'TarballDeleteError',
    pattern: /^Failed deleting (?:orphaned )?tarball (?<tarball>\S+); delete Job retained/,
    template: 'Failed deleting [orphaned] tarball <name>; delete Job retained for inspection',
    rule: 'snapshot-export-failing',
    severity: 'warning',
    cause: 'the delete Job of an expired tarball failed: the object stays in the bucket and keeps costing storage',
    action: 'exportDelete',
    clearedBy: ['TarballDeleted'],
  },
  {
    id: 'event/TarballDeleteError-retry',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'TarballDeleteError',
    pattern: /(?:^Delete attempt (?<attempt>\d+) for (?<tarball>\S+) failed: (?<error>.*)|; retry after (?<retry>\S+)$)/,
    template: 'Delete attempt <n> for <export> failed: <error>; retry after <time> | <failure>; retry after <time>',
    rule: 'snapshot-export-failing',
    severity: 'warning',
    cause: 'deleting an expired tarball from the bucket fails; the operator retries (3 attempts at most)',
    action: 'exportDelete',
    clearedBy: ['TarballDeleted'],
  },
  {
    id: 'event/TarballCleanupRequired',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'TarballCleanupRequired',
    pattern: /.+/,
    template: '<export record: destination, attempts, last error>',
    rule: 'snapshot-export-failing',
    severity: 'warning',
    cause: 'the operator gave up deleting a tarball (missing credentials or retries exhausted): it waits for a person to clean it up',
    action: 'exportCleanup',
  },
  {
    id: 'status/SnapshotExportCleanup',
    kind: 'ChainNode',
    channel: 'status',
    pattern: /^\.status\.conditions\[SnapshotExportCleanup\] = "True"$/,
    template: 'condition SnapshotExportCleanup = True (TarballCleanupRequired | TarballDeleteAttemptsExhausted)',
    rule: 'snapshot-export-failing',
    severity: 'warning',
    cause: 'tarball exports wait for a person to clean them up',
    action: 'exportCleanup',
  },
  {
    id: 'event/TarballCleanupAcknowledged',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'TarballCleanupAcknowledged',
    pattern: /^Snapshot export cleanup (?<export>\S+) was explicitly acknowledged/,
    template: 'Snapshot export cleanup <id> was explicitly acknowledged without deletion proof',
    rule: 'snapshot-export-failing',
    severity: 'info',
    cause: 'someone acknowledged a tarball cleanup without the operator seeing the object deleted: it may still be in the bucket',
    action: 'Make sure the tarball is gone from the bucket (the export record in .status.snapshotExports names it).',
  },
  {
    id: 'reconcile-error/export-credentials',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /get snapshot export (?:credentials Secret|ServiceAccount) "(?<name>[^"]+)"|snapshot tarball export is not configured|no upload target defined|snapshot \S+ has no controller-owned export destination/,
    template: 'get snapshot export credentials Secret "<name>": <error> | no upload target defined | …',
    rule: 'snapshot-export-failing',
    severity: 'error',
    cause: 'the tarball export of .spec.persistence.snapshots.exportTarball has no usable destination or credentials',
    action: `Create the Secret or ServiceAccount the error names in {namespace}, or fix .spec.persistence.snapshots.exportTarball (${editNode}).`,
  },
  {
    id: 'reconcile-error/export-job-cleanup',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /clean up (?:missing|failed) tarball export job|persist (?:pending )?tarball deletion success|snapshot export "[^"]+" cannot (?:transition|start deletion)/,
    template: 'clean up failed tarball export job: <error> | persist tarball deletion success: <error> | snapshot export "<id>" cannot transition …',
    rule: 'snapshot-export-failing',
    severity: 'error',
    cause: 'the operator cannot clean up or record a tarball export, and every reconcile of the node stops there',
    action: 'export',
  },
  {
    id: 'error-log/integrity-cleanup',
    kind: 'ChainNode',
    channel: 'error-log',
    pattern: /^failed to clean up integrity check resources$/,
    template: 'failed to clean up integrity check resources (snapshot: <name>)',
    rule: 'snapshot-export-failing',
    severity: 'warning',
    cause: 'the integrity check Job and PVC of a snapshot (<snapshot>-ichk) were not removed: they keep holding a volume',
    action: 'kubectl get job,pvc -n {namespace} | grep -- -ichk ; delete what is left once the check is done.',
  },
  // ---- VPA (vpa.go) ----
  {
    id: 'event/VPAEmergencyScaleUp',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'VPAEmergencyScaleUp',
    pattern: /^Emergency memory scale-up due to OOM: (?<from>\S+) -> (?<to>\S+) \(recovery (?<n>\d+)\/(?<max>\d+)\)/,
    template: 'Emergency memory scale-up due to OOM: <old> -> <new> (recovery <i>/<max>)',
    rule: 'oom-recovery',
    severity: 'warning',
    cause: 'the node was OOMKilled and the operator raised its memory request in an emergency',
    action: 'oom',
  },
  {
    id: 'event/VPAOOMRecoveryLimitReached',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'VPAOOMRecoveryLimitReached',
    pattern: /^OOM recovery limit reached \((?<n>\d+)\/(?<max>\d+) in (?<window>[^)]+)\)/,
    template: 'OOM recovery limit reached (<n>/<max> in <window>). Possible memory leak - manual intervention required.',
    rule: 'oom-recovery',
    severity: 'error',
    cause: 'the node keeps being OOMKilled and the operator stopped raising its memory: a leak, or a limit far too low',
    action: 'oom',
  },
  {
    id: 'error-log/oom-recovery',
    kind: 'ChainNode',
    channel: 'error-log',
    pattern: /^failed to handle OOM recovery$/,
    template: 'failed to handle OOM recovery (error: no memory request found for OOM recovery | …)',
    rule: 'oom-recovery',
    severity: 'error',
    cause: 'the node was OOMKilled and the operator could not apply its OOM recovery (the app container has no memory request)',
    action: `Set a memory request in .spec.resources (or .spec.vpa.memory.min) so OOM recovery can work: ${editNode}`,
  },
  {
    id: 'reconcile-error/vpa-request',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /no (?:CPU|memory) request found|(?:CPU|memory) request is zero, cannot evaluate/,
    template: 'no CPU request found | memory request is zero, cannot evaluate',
    rule: 'oom-recovery',
    severity: 'error',
    cause: '.spec.vpa is on but the app container has no CPU or memory request to scale from',
    action: `Set requests in .spec.resources (or min values in .spec.vpa): ${editNode}`,
  },
  // ---- signing keys, cosmosigner, reservations (keys.go, tmkms.go, cosmosigner.go, reservation*.go) ----
  {
    id: 'event/UploadFailed',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'UploadFailed',
    pattern:
      /(?:^Failed to upload validator key to Vault|^failed to import cosmosigner key to (?:Vault|GCP KMS)|imported key version "[^"]*" is not readable yet)/,
    template:
      'Failed to upload validator key to Vault: <error> | failed to import cosmosigner key to Vault|GCP KMS: <error> | cosmosigner imported key version "<v>" is not readable yet: <error>',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: 'the operator cannot put the consensus key into the key backend (Vault or GCP KMS): the signer cannot start signing with it',
    action: 'keyBackend',
  },
  {
    id: 'event/ConsensusKeyReservationBlocked',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'ConsensusKeyReservationBlocked',
    pattern: /consensus key reservation (?:conflict|recovery blocked)/,
    template:
      'consensus key reservation conflict: consensus key on chain "<id>" is already reserved by <Kind> <ns>/<name> (UID <uid>) | consensus key reservation recovery blocked: …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause:
      'another ChainNode or ChainNodeSet holds the reservation of this consensus key: the operator refuses to run two signers of one key (double-sign protection)',
    action:
      'Find the holder: kubectl get consensuskeyreservations -o wide | grep <chain>; remove the key from the other owner (or delete this duplicate) — never run both.',
    clearedBy: ['ConsensusKeyReservationRecovered'],
  },
  {
    id: 'reconcile-error/signing-key-mismatch',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /public key does not match the on-chain|cannot verify the on-chain validator public key|cannot change a validator public key after rollout|serves a different consensus key than source secret|source key changed after import|cannot adopt tmKMS Vault key/,
    template: '… public key does not match the on-chain validator public key recorded in status; Cosmopilot does not rotate validator consensus keys | …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: 'the key the signer would use is not the consensus key registered on chain: the operator refuses to roll it out',
    action:
      'Restore the registered consensus key (the one in .status.pubKey) in the signer backend or the key Secret; do not change it in place. kubectl get {kind} {object} -n {namespace} -o jsonpath={.status.pubKey}',
  },
  {
    id: 'reconcile-error/signing-key-missing',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /(?:software key|source|fallback|tmKMS \S+) secret "?(?<secret>[^"\s]+)"? (?:not found|has no|is missing|contains an invalid)|secret "(?<secret2>[^"]+)" is missing required key|is not present in the secret|no supported (?:tmKMS )?provider configured|tmKMS Hashicorp address and key are required/,
    template:
      'cosmosigner software key secret "<name>" not found … | tmKMS <purpose> secret "<name>" not found | priv_validator_key.json is not present in the secret | …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: 'a Secret holding signing material (consensus key, Vault token or certificate) is missing or lacks its key',
    action: 'Create the Secret the error names in {namespace} with the key it asks for (never a new consensus key for a registered validator).',
  },
  {
    id: 'reconcile-error/cosmosigner-removal',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /cosmosigner(?: "[^"]+")? cannot be (?:removed|moved|added|migrated)|cannot be removed: /,
    template: 'cosmosigner [<name>] cannot be removed: <why>',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: 'the spec removes or moves a cosmosigner that protects a live validator key, and the operator cannot prove a safe fallback: it refuses the change',
    action: `Put the signer back in the spec (${editNode}) and follow the error's own instruction before removing it again.`,
  },
  {
    id: 'reconcile-error/cosmosigner-immutable',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /cosmosigner(?: "[^"]+")? (?:replicas are immutable|state storage \(size\/class\) is immutable)/,
    template: 'cosmosigner replicas are immutable after deployment … | cosmosigner state storage (size/class) is immutable after deployment …',
    rule: 'spec-invalid',
    severity: 'error',
    cause: 'the spec changes cosmosigner replicas or state storage, which cannot change after deployment',
    action: `Revert the cosmosigner replicas or storage in the spec: ${editNode}`,
  },
  {
    id: 'reconcile-error/cosmosigner-status-lost',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /restore (?:the recorded target status|the signer status|\.status\.cosmosigners|the previous (?:signer )?configuration)|has live state before its|refusing to switch child signing paths|applied public key (?:was not recorded|is missing)/,
    template: 'cosmosigner <name> … restore the recorded target status before recovery | … applied public key was not recorded …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: "the operator lost (or never recorded) the cosmosigner's signing status and will not touch a live signer it cannot verify",
    action:
      "Follow the error's instruction (restore the previous signer configuration or status for one reconcile); do not delete the signer's StatefulSet or PVCs.",
  },
  // ---- spec and ownership (controller.go, ownership.go, resource_cleanup.go) ----
  ...invalidSpec('ChainNode', '', 'nothing of the node is reconciled until it is fixed'),
  {
    id: 'error-log/validation-warnings',
    kind: 'ChainNode',
    channel: 'error-log',
    pattern: /^validation warnings$/,
    template: 'validation warnings (warnings: [<text>…])',
    rule: 'spec-invalid',
    severity: 'warning',
    cause: 'the operator accepts the spec but warns about it (webhooks disabled, so kubectl never showed the warning)',
    action: `Read the warnings and fix the spec: ${editNode}`,
  },
  {
    id: 'reconcile-error/durable-cleanup',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /refusing durable cleanup|refusing to release consensus-key reservations|refusing an unguarded delete|changed UID while removing/,
    template: 'refusing durable cleanup while pod <ns>/<pod> is not controlled by ChainNode UID <uid> | …',
    rule: 'ownership-conflict',
    severity: 'error',
    cause:
      'the node is being deleted and the operator will not remove its volumes, keys or reservation while a Pod it does not own still uses them: the deletion hangs on its finalizer',
    action: 'Delete (or release) the Pod the error names, then the finalizer completes: kubectl get pod -n {namespace} -o wide | grep {object}',
  },
  {
    id: 'reconcile-error/ownership',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /managed by another owner|not owned by this ChainNode|refusing to (?:overwrite|adopt|update|delete|use it)|has no controller owner|is not controlled by ChainNode/,
    template: 'ChainNode <kind> "<name>" is managed by another owner; refusing to overwrite it | … refusing to use it | …',
    rule: 'ownership-conflict',
    severity: 'error',
    cause: 'an object the operator must manage for this node already exists and belongs to someone else: it refuses to overwrite it',
    action:
      'Find the object the error names (kubectl get <kind> <name> -n {namespace} -o yaml | grep -A5 ownerReferences) and delete it or rename one of the two.',
  },
  {
    id: 'reconcile-error/reservation-inconsistent',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /reservation "[^"]+" matches \S+ UID "[^"]+" but has inconsistent|still matches (?:an obsolete|a managed) standalone|still matches undesired reservation claim/,
    template: 'reservation "<name>" matches ChainNode UID "<uid>" but has inconsistent owner or claim metadata | …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: "a ConsensusKeyReservation of the node's key does not agree with its owner, so the operator will not move or release it",
    action:
      'kubectl get consensuskeyreservations -o yaml | grep -B3 -A10 {object}; fix or remove the stale reservation only once no other signer uses the key.',
  },
  // ---- ChainNodeSet (chainnodeset/*.go) ----
  ...invalidSpec('ChainNodeSet', 'set/', 'none of its nodes is created or updated until it is fixed'),
  {
    id: 'set/reconcile-error/webhooks-disabled',
    kind: 'ChainNodeSet',
    channel: 'reconcile-error',
    pattern: /\(webhooks disabled\)|with webhooks disabled|genesis-initializing validator "[^"]+" is recorded in group/,
    template:
      'cosmosigner "<name>" cannot be removed (webhooks disabled): … | genesis-initializing validator "<name>" cannot be added with webhooks disabled …',
    rule: 'spec-invalid',
    severity: 'error',
    cause: 'with webhooks disabled the operator refuses a change to the set that would break a validator (its signer or the genesis validators)',
    action: `Revert that part of the spec (${editNode}); make the change with webhooks on if it must happen.`,
  },
  {
    id: 'set/event/GenesisError',
    kind: 'ChainNodeSet',
    channel: 'event',
    reason: 'GenesisError',
    pattern: /^Failed to (?:download genesis from URL|retrieve genesis from RPC node|load genesis from ConfigMap): (?<error>.*)/,
    template: 'Failed to download genesis from URL | Failed to retrieve genesis from RPC node | Failed to load genesis from ConfigMap: <error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the set cannot obtain its genesis from .spec.genesis: it creates no ChainNode until it does (phase Initializing)',
    action: 'genesis',
    clearedBy: GENESIS_CLEARED,
  },
  {
    id: 'set/reconcile-error/genesis',
    kind: 'ChainNodeSet',
    channel: 'reconcile-error',
    // The set returns its genesis source's error bare: an HTTP client error (Get "<url>": …) is the download.
    pattern:
      /genesis could not be retri[ev]+d using any of the available methods|failed to extract chainID|retrieve genesis|download genesis|genesis from ConfigMap|ConfigMap "[^"]+" not found|configmaps "[^"]+" not found|^Get "[^"]+": /,
    template: 'genesis could not be retrived using any of the available methods | Get "<url>": <error> | <the source error>',
    rule: 'genesis-unavailable',
    severity: 'error',
    cause: 'the set cannot obtain its genesis: it creates no ChainNode until it does',
    action: 'genesis',
  },
  {
    id: 'set/status/phase-Initializing',
    kind: 'ChainNodeSet',
    channel: 'status',
    pattern: /^\.status\.phase = "Initializing"$/,
    template: '.status.phase = Initializing (no .status.chainID yet)',
    rule: 'genesis-unavailable',
    severity: 'warning',
    cause: 'the set has no genesis yet, so it has created no ChainNode',
    action: 'genesis',
  },
  {
    id: 'set/event/CosmosignerMigrationPending',
    kind: 'ChainNodeSet',
    channel: 'event',
    reason: 'CosmosignerMigrationPending',
    pattern: /^cosmosigner "(?<signer>[^"]+)" is rolled out; waiting for (?<count>\d+) target ChainNode\(s\) to become healthy[^:]*: (?<targets>.*)/,
    template: 'cosmosigner "<name>" is rolled out; waiting for <n> target ChainNode(s) to become healthy on the new remote-signer path: <nodes>',
    rule: 'signing-key-blocked',
    severity: 'warning',
    cause: 'a cosmosigner migration is rolled out but its target nodes are not healthy on the new signing path: the validator may not be signing',
    action:
      'Check the target nodes it names (kubectl chainnode doctor <node> -n {namespace}) and the signer (kubectl chainnode signer <node> -n {namespace}); the migration completes when they are Running.',
  },
  {
    id: 'set/event/UploadFailed',
    kind: 'ChainNodeSet',
    channel: 'event',
    reason: 'UploadFailed',
    pattern: /import cosmosigner key to (?:Vault|GCP KMS)|imported key version "[^"]*" is not readable yet/,
    template: 'failed to import cosmosigner key to Vault | GCP KMS: <error> | cosmosigner "<signer>" imported key version "<v>" is not readable yet: <error>',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: "the operator cannot import the set's consensus key into the key backend (Vault or GCP KMS)",
    action: 'keyBackend',
  },
  {
    id: 'set/event/ConsensusKeyReservationBlocked',
    kind: 'ChainNodeSet',
    channel: 'event',
    reason: 'ConsensusKeyReservationBlocked',
    pattern: /consensus key reservation (?:conflict|recovery blocked)/,
    template: 'consensus key reservation conflict: … is already reserved by <Kind> <ns>/<name> (UID <uid>)',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: 'another owner holds the reservation of a consensus key of this set: the operator refuses to run two signers of one key',
    action: 'Find the holder: kubectl get consensuskeyreservations -o wide; remove the key from the other owner — never run both.',
    clearedBy: ['ConsensusKeyReservationRecovered'],
  },
  {
    id: 'set/reconcile-error/cosmosigner',
    kind: 'ChainNodeSet',
    channel: 'reconcile-error',
    pattern: /cosmosigners? "[^"]+"/,
    template: 'cosmosigner "<name>" <refusal: cannot be removed | public key does not match | targets missing group | has no reserved signing identity | …>',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: "the operator refuses a cosmosigner change of the set to protect the validator's key (the error says which)",
    action: `Follow the error's instruction; revert the cosmosigner part of the spec if needed (${editNode}).`,
  },
  {
    id: 'set/reconcile-error/child-timeout',
    kind: 'ChainNodeSet',
    channel: 'reconcile-error',
    pattern: /timeout waiting for chainnode (?<child>\S+) running or syncing status/,
    template: 'timeout waiting for chainnode <name> running or syncing status',
    rule: 'set-rollout-blocked',
    severity: 'error',
    cause: 'the set rolls out its nodes one by one and the node it waits for does not reach Running or Syncing: the rollout of the rest is held',
    action:
      'Fix what holds {child} (named above); the rollout goes on once it is Running or Syncing. The whole story: kubectl chainnode doctor {child} -n {namespace}',
  },
  {
    id: 'set/reconcile-error/ownership',
    kind: 'ChainNodeSet',
    channel: 'reconcile-error',
    pattern:
      /refusing to (?:adopt|update|delete|modify|overwrite)|managed by another owner|not owned by this ChainNodeSet|not controlled by this ChainNodeSet|cannot manage pod disruption budget|refusing cleanup of ChainNode|refusing durable cleanup/,
    template: 'refusing to adopt unrecorded ChainNode <ns>/<name> | service "<name>" is managed by another owner … | …',
    rule: 'ownership-conflict',
    severity: 'error',
    cause: 'an object the set must manage exists and belongs to someone else (or is not recorded as its own): the operator refuses to take it over',
    action: 'Find the object the error names (kubectl get <kind> <name> -n {namespace} -o yaml) and delete it or rename it.',
  },
  {
    id: 'set/reconcile-error/seed-migration',
    kind: 'ChainNodeSet',
    channel: 'reconcile-error',
    pattern: /waiting for legacy Cosmoseed StatefulSet claim-template migration|cannot migrate Cosmoseed StatefulSet/,
    template: 'waiting for legacy Cosmoseed StatefulSet claim-template migration | cannot migrate Cosmoseed StatefulSet <name>: …',
    rule: 'set-rollout-blocked',
    severity: 'warning',
    cause: "the set's seed StatefulSet is being migrated to a new volume template and the set waits on it",
    action: 'kubectl get statefulset -n {namespace} -l nodeset={object}; if it lasts, read the operator log: ' + operatorLog,
  },
  {
    id: 'set/reconcile-error/labels',
    kind: 'ChainNodeSet',
    channel: 'reconcile-error',
    pattern: /list of labels must contain pairs of key-value/,
    template: 'list of labels must contain pairs of key-value',
    rule: 'spec-invalid',
    severity: 'error',
    cause: 'a labels list in the set (ingress, gateway or group labels) has an odd number of entries',
    action: `Fix the labels in the spec: ${editNode}`,
  },
]

/** What to do for the entries whose action is a shared procedure; {…} filled per node. */
export const SHARED_ACTIONS: Record<string, string> = {
  unjail: 'unjail',
  volume:
    'Raise .spec.persistence.autoResizeMaxSize (kubectl patch {kind} {object} -n {namespace} --type merge -p \'{"spec":{"persistence":{"autoResizeMaxSize":"<bigger>"}}}\'), or prune the node (pruning in app.toml) before the disk is full; check: kubectl get pvc {object} -n {namespace}',
  upgrade:
    "Add the upgrade for height {height} with its image to .spec.app.upgrades (kubectl edit {kind} {object} -n {namespace}), or check why the on-chain plan was not read (the 'could not retrieve upgrade plans' lines).",
  genesis: `Check the genesis source in .spec.genesis (${describe}): the URL reachable from the operator's Pod and its genesisSHA256, the RPC node, or the ConfigMap with key genesis.json.`,
  initGenesis:
    'Read the genesis Pod: kubectl logs -n {namespace} {object}-genesis-init --all-containers; check .spec.validator.init (accounts, chain id, denominations).',
  export:
    'Read the upload Job and its Pod: kubectl get jobs -n {namespace} | grep upload ; kubectl logs -n {namespace} job/<tarball>-upload ; check the bucket credentials in .spec.persistence.snapshots.exportTarball. After the retry limit, remove the export annotations from the VolumeSnapshot to retry.',
  exportDelete:
    'Read the delete Job: kubectl logs -n {namespace} job/<tarball>-delete ; check the bucket credentials; the object is still in the bucket until it succeeds.',
  exportCleanup:
    'Delete the tarball from the bucket by hand (.status.snapshotExports names it), then acknowledge: kubectl annotate {kind} {object} -n {namespace} cosmopilot.voluzi.com/acknowledge-snapshot-export-cleanup=<export id>',
  oom: "Read the OOM history (kubectl get {kind} {object} -n {namespace} -o jsonpath='{.metadata.annotations.cosmopilot\\.voluzi\\.com/oom-recovery-history}') and the previous app logs (kubectl chainnode logs {object} -n {namespace} --previous); raise .spec.resources memory or .spec.vpa.memory.max, or find the leak.",
  keyBackend:
    'Check the key backend the error names (Vault address, token and transit key; or the GCP KMS key ring and its service account) and its credentials Secret in {namespace}; the operator retries each reconcile.',
  api: 'api',
}

export const entryById = new Map(VOCABULARY.map((entry) => [entry.id, entry]))

/** Fill {placeholders}; an unknown one stays visible as <name>. */
export function fillTemplate(template: string, vars: Readonly<Record<string, string | undefined>>): string {
  return template.replace(/\{([a-zA-Z0-9]+)\}/g, (_whole, name: string) => vars[name] ?? `<${name}>`)
}
