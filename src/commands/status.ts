import { Args } from '@oclif/core'
import { outputFlag } from '../base/command.js'
import { scopeFlags, SnapshotCommand } from '../base/snapshot-command.js'
import { renderStatusText, statusRows } from '../render/status.js'
import { visible } from '../render/visible.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { CHAIN_PROBE_TIMEOUT_MS } from '../cli/doctor.js'

export default class Status extends SnapshotCommand {
  static summary = "Show nodes with the server's columns plus pod phase, readiness, restarts and config-hash state"
  static description = `-o wide adds what the nodes themselves say (live height, age of the last block, peers, catching up), read from each running Pod's CometBFT RPC on 26657 through a port-forward.`
  static examples = ['<%= config.bin %> status fullnode-0 -n cosmos', '<%= config.bin %> status --all -n cosmos -o wide', '<%= config.bin %> status -A -o json']
  static args = { name: Args.string({ description: 'ChainNode name' }) }
  static flags = { ...scopeFlags, ...SnapshotCommand.snapshotFlags, output: outputFlag(['text', 'wide', 'json']) }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Status)
    await this.setupOutput(flags)
    // The wide columns come from the nodes: one /status and /net_info each, no second reading.
    const chainProbe = flags.output === 'wide' ? { windowMs: 0, timeoutMs: CHAIN_PROBE_TIMEOUT_MS } : undefined
    // No node logs; the manager log says why a node's reconciles fail.
    const snapshots = await this.snapshots({ ...flags, name: args.name }, false, 'none', undefined, new Set(['operator']), chainProbe)
    const clusters = snapshots.map((snapshot) => ({ snapshot, index: new SnapshotIndex(snapshot) }))
    if (flags.output === 'json') {
      const nodes = clusters.flatMap(({ snapshot, index }) => statusRows(index).map((row) => ({ context: snapshot.source.context, ...row })))
      this.print(JSON.stringify({ schemaVersion: 1, kind: 'NodeStatusList', nodes, collectionErrors: snapshots.flatMap((s) => s.collectionErrors) }, null, 2))
    } else {
      for (const { snapshot, index } of clusters) {
        if (clusters.length > 1) this.print(this.palette.paint('heading', `Cluster ${visible(snapshot.source.context)}`))
        const rows = statusRows(index)
        this.print(rows.length ? renderStatusText(index, rows, index.snapshot.scope.kind === 'all', flags.output === 'wide') : 'No ChainNodes found.')
      }
    }
    if (snapshots.some((s) => s.collectionErrors.length > 0)) process.exitCode = 3
  }
}
