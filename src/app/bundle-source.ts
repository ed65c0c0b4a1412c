import type { Snapshot } from '../snapshot/types.js'
import { resolveScope, type ReadReporter, type SnapshotFlags, type SnapshotReads, type SnapshotSource } from './snapshot-source.js'
import { bundleSnapshot } from './snapshots.js'

/** A bundle replayed offline, as if it were the cluster it was collected from. */
export class BundleSource implements SnapshotSource {
  constructor(private readonly reporter: ReadReporter) {}

  async read(flags: SnapshotFlags, reads: SnapshotReads): Promise<Snapshot[]> {
    const bundle = flags.bundle ?? ''
    const scope = resolveScope(flags, flags.namespace, { nameRequired: reads.nameRequired ?? false, wholeByDefault: true })
    const spinner = await this.reporter.progress(`reading bundle ${bundle}`)
    // A run that reads node logs (doctor, timeline) is told which of them the bundle lacks, as a live read that failed.
    const lacking = reads.logs !== 'none' && reads.logRoles ? reads.logRoles : undefined
    try {
      const snapshot = await bundleSnapshot(bundle, { scope, redact: !flags['no-redact'], lacking }, (what) => {
        spinner.update(`reading bundle ${bundle}: ${what}`)
        this.reporter.debugLine(`bundle: ${what}, at ${(process.uptime() * 1000).toFixed(0)} ms`)
      })
      return [snapshot]
    } finally {
      spinner.stop()
    }
  }
}
