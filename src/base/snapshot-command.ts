import type { LogMode } from '../cluster/collect.js'
import { SNAPSHOT_FLAGS } from '../cli/flag-spec.js'
import type { Probe, SnapshotFlags } from '../cli/session.js'
import type { LogRole } from '../snapshot/node-layout.js'
import type { Snapshot } from '../snapshot/types.js'
import type { SnapshotRequest } from '../services/snapshots.js'

type ChainProbeRequest = SnapshotRequest['chainProbe']
import { KubeCommand } from './kube-command.js'
import { oclifFlags } from './oclif-flags.js'

export type { SnapshotFlags }

/** Commands that read nodes: live from one or more clusters, or offline from a bundle. */
export abstract class SnapshotCommand extends KubeCommand {
  static snapshotFlags = oclifFlags(SNAPSHOT_FLAGS)

  /** One snapshot per context (--context a,b reads several clusters), or the bundle's. */
  protected snapshots(
    flags: SnapshotFlags,
    nameRequired = false,
    logs?: LogMode,
    probe?: Probe,
    logRoles?: ReadonlySet<LogRole>,
    chainProbe?: ChainProbeRequest,
  ): Promise<Snapshot[]> {
    return this.session.snapshots(flags, nameRequired, logs, probe, logRoles, chainProbe)
  }
}
