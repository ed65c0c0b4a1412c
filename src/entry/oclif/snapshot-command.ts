import { SNAPSHOT_FLAGS } from '../../commands/flag-spec.js'
import type { SnapshotFlags, SnapshotReads } from '../../app/session.js'
import type { Snapshot } from '../../snapshot/types.js'
import { KubeCommand } from './kube-command.js'
import { oclifFlags } from './oclif-flags.js'

export type { SnapshotFlags }

/** Commands that read nodes: live from one or more clusters, or offline from a bundle. */
export abstract class SnapshotCommand extends KubeCommand {
  static snapshotFlags = oclifFlags(SNAPSHOT_FLAGS)

  /** One snapshot per context (--context a,b reads several clusters), or the bundle's. */
  protected snapshots(flags: SnapshotFlags, reads?: SnapshotReads): Promise<Snapshot[]> {
    return this.session.snapshots(flags, reads)
  }
}
