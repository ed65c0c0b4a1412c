import type { LogMode, ObjectReads } from '../cluster/collect.js'
import type { Connection } from '../cluster/connection.js'
import type { LogRole } from '../snapshot/node-layout.js'
import type { ProbeRecord, Scope, Snapshot } from '../snapshot/types.js'
import type { ScopeInput } from '../snapshot/scope.js'

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
