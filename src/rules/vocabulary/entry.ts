import type { Severity } from '../../engine/define-rule.js'
import type { RuleId } from '../../engine/rule-ids.js'

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

/** Commands and Event reasons the parts of the vocabulary share in their actions. */
export const describe = 'kubectl describe {kind} {object} -n {namespace}'
export const operatorLog = 'kubectl logs -n {operatorNamespace} deploy/{operatorName} -c manager | grep {object}'
export const editNode = 'kubectl edit {kind} {object} -n {namespace}'
export const GENESIS_CLEARED = ['GenesisImported', 'GenesisCreated']

/** With webhooks disabled both controllers validate in Reconcile: an Invalid Event, then an error line, then the bare error returned. */
export function invalidSpec(kind: VocabularyEntry['kind'], prefix: string, blocked: string): VocabularyEntry[] {
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

/** Fill {placeholders}; an unknown one stays visible as <name>. */
export function fillTemplate(template: string, vars: Readonly<Record<string, string | undefined>>): string {
  return template.replace(/\{([a-zA-Z0-9]+)\}/g, (_whole, name: string) => vars[name] ?? `<${name}>`)
}
