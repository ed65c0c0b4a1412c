import type { Connection } from '../cluster/connection.js'
import type { Snapshot } from '../snapshot/types.js'
import { BundleSource } from './bundle-source.js'
import { LiveSource } from './live-source.js'
import type { KubeFlags, ReadReporter, SnapshotFlags, SnapshotReads, SnapshotSource } from './snapshot-source.js'

/**
 * The one reader of a run: the clusters of the kubeconfig's contexts, or a bundle. A command asks it for
 * snapshots and never knows which source answered; serve, logs -f and the profile captures hold its connections.
 * What it has to say while it reads (debug lines, a spinner) goes to the reporter the run's output gives it.
 */
export class ClusterReader {
  readonly live: LiveSource
  private readonly bundle: BundleSource

  /** cliVersion: the version each snapshot is stamped with. */
  constructor(
    readonly cliVersion: string,
    reporter: ReadReporter,
  ) {
    this.live = new LiveSource(cliVersion, reporter)
    this.bundle = new BundleSource(reporter)
  }

  connect(flags: KubeFlags, contextName = flags.context): Promise<Connection> {
    return this.live.connect(flags, contextName)
  }

  /** One snapshot per context (--context a,b reads several clusters), or the bundle's; -l is part of the scope either way. */
  async snapshots(flags: SnapshotFlags, reads: SnapshotReads = {}): Promise<Snapshot[]> {
    const source: SnapshotSource = flags.bundle ? this.bundle : this.live
    return source.read(flags, reads)
  }

  close(): void {
    this.live.close()
  }
}
