import type { LogMode, ObjectReads } from '../cluster/collect.js'
import type { Connection } from '../cluster/connection.js'
import type { PodPort } from '../cluster/chain-probe.js'
import type { LogRole } from '../snapshot/node-layout.js'
import type { ProbeRecord, Scope, Snapshot } from '../snapshot/types.js'
import { usageError } from '../util/errors.js'

export interface ScopeInput {
  name?: string
  set?: string
  all?: boolean
  'all-namespaces'?: boolean
  selector?: string
  /** -n as given on the command line (not the context's): alone, it names the namespace's nodes. */
  namespace?: string
}

/**
 * The one place a command line becomes a Scope. A bundle answers for everything it holds when nothing is
 * named (wholeByDefault); a listing reads the namespace, as kubectl get does (namespaceByDefault); other
 * commands against a cluster need to be told which nodes, and -n alone tells them: that namespace's.
 */
export function resolveScope(
  input: ScopeInput,
  namespace: string | undefined,
  {
    nameRequired = false,
    wholeByDefault = false,
    namespaceByDefault = false,
  }: { nameRequired?: boolean; wholeByDefault?: boolean; namespaceByDefault?: boolean } = {},
): Scope {
  // As kubectl get: a name picks one object, a selector picks among many; both at once is a mistake.
  if (input.name && input.selector) throw usageError('a NAME cannot be given with -l', 'name the node, or select nodes with -l and -n, --all or -A')
  const scope = scopeOf(input, namespace, { nameRequired, wholeByDefault, namespaceByDefault })
  return input.selector ? { ...scope, selector: input.selector } : scope
}

function scopeOf(
  input: ScopeInput,
  namespace: string | undefined,
  { nameRequired, wholeByDefault, namespaceByDefault }: { nameRequired: boolean; wholeByDefault: boolean; namespaceByDefault: boolean },
): Scope {
  const chosen = [input.name, input.set, input.all, input['all-namespaces']].filter(Boolean).length
  // `doctor -n NS` means the nodes `status -n NS` lists, as --all -n NS does (a bundle's too).
  if (chosen === 0 && input.namespace && !nameRequired) return { kind: 'namespace', namespace: input.namespace }
  if (chosen === 0 && wholeByDefault) return { kind: 'all' }
  if (chosen === 0 && namespaceByDefault) return { kind: 'namespace', namespace }
  if (chosen > 1) throw usageError('give only one of NAME, --set, --all and -A', 'see --help')
  if (nameRequired && !input.name) throw usageError('missing NAME of the ChainNode', 'pass the ChainNode name, e.g. chainnode describe fullnode-0 -n NAMESPACE')
  if (input.name) return { kind: 'node', namespace, name: input.name }
  if (input.set) return { kind: 'set', namespace, name: input.set }
  if (input['all-namespaces']) return { kind: 'all' }
  // -l alone looks in the namespace, as kubectl get -l does.
  if (input.all || input.selector) return { kind: 'namespace', namespace }
  throw usageError(
    'no node given',
    `pass NAME, --set NAME, -n NAMESPACE (its nodes, as status -n NAMESPACE lists them), --all (those of namespace ${namespace ?? 'default'}) or -A (all namespaces)`,
  )
}

export interface KubeFlags {
  kubeconfig?: string
  context?: string
  namespace?: string
  /** Milliseconds (0: none), as every duration a command hands over. */
  'request-timeout': number
  /** Deadline of the whole run in milliseconds (doctor --timeout; 0: none). */
  timeout?: number
}

export interface SnapshotFlags extends KubeFlags, ScopeInput {
  bundle?: string
  'no-redact'?: boolean
  tail?: number
  /** Look-alike nodes whose logs are read per group (doctor --log-sample). */
  'log-sample'?: number
}

/** What one live read of a cluster asks for (app/live-source.ts liveSnapshot); a bundle's replay takes its scope and redaction. */
export interface SnapshotRequest {
  scope: Scope
  cliVersion: string
  redact: boolean
  tailLines: number
  sinceSeconds?: number
  maxLogBytes: number
  logs?: LogMode
  /** Look-alike nodes whose logs are read per group, for LogMode 'auto' (0: all). */
  logSample?: number
  /** Only the logs of these roles (what the rules of a doctor run read). */
  logRoles?: ReadonlySet<LogRole>
  /** Probe the running nodes' own RPC and node-utils (port-forwards); the height is read again after windowMs when the last block is old. */
  chainProbe?: { windowMs: number; timeoutMs: number; signingWindow?: number; nodeUtils?: boolean }
  /** What a command that shows less than doctor reads (undefined: everything). */
  objects?: ObjectReads
  /** Where the operator's manager ran at the last read of this cluster (app/cluster-memory.ts). */
  operatorPods?: readonly { namespace: string; pod: string }[]
  /** The Pod ports the chain probe read at the last read of this cluster (app/cluster-memory.ts). */
  probedPorts?: readonly PodPort[]
  /** The namespaces of its ChainNodes at the last read of this cluster across every namespace (app/cluster-memory.ts). */
  namespaces?: readonly string[]
}

export type Probe = (connection: Connection, snapshot: Snapshot) => Promise<ProbeRecord[]>

/** What a command reads besides the objects in scope, and whether its scope must name one node. */
export interface SnapshotReads {
  nameRequired?: boolean
  /** With no NAME, --set, --all or -A, read the namespace's nodes (a listing, like kubectl get). */
  namespaceByDefault?: boolean
  logs?: LogMode
  /** Only the logs of these roles (what the rules of a doctor run read). */
  logRoles?: ReadonlySet<LogRole>
  /** Probes run after collection (the signer's). */
  probe?: Probe
  /** The nodes' own RPC and node-utils, started with the Pod list. */
  chainProbe?: SnapshotRequest['chainProbe']
  /** Only what the command shows (see ObjectReads); undefined reads what every rule needs. */
  objects?: SnapshotRequest['objects']
}

/** A spinner line while something is read; a run's output gives one (render/progress.ts), or none. */
export interface ReadProgress {
  update(text: string): void
  stop(): void
}

/** What a reader has to say while it reads, to the run's output (render/output.ts). */
export interface ReadReporter {
  debugLine(text: string): void
  progress(text: string): Promise<ReadProgress>
}

/**
 * Where a run's snapshots come from: the clusters of the kubeconfig's contexts (app/live-source.ts) or a bundle
 * (app/bundle-source.ts). A command asks the ClusterReader; it never knows which of them answered.
 */
export interface SnapshotSource {
  /** One snapshot per cluster read, or the bundle's, narrowed to the scope the flags name. */
  read(flags: SnapshotFlags, reads: SnapshotReads): Promise<Snapshot[]>
}
