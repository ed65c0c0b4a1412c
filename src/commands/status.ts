import { Args, Flags } from '@oclif/core'
import { outputFlag } from '../base/command.js'
import { scopeFlags, SnapshotCommand } from '../base/snapshot-command.js'
import { renderStatusText, statusRows, type StatusRow } from '../render/status.js'
import { structured } from '../render/structured.js'
import { visible } from '../render/visible.js'
import { fitWidth, tableWidth } from '../render/width.js'
import { keyedRows, requireLive, watchRows } from '../services/watch.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { Snapshot } from '../snapshot/types.js'
import { CHAIN_PROBE_TIMEOUT_MS } from '../cli/doctor.js'

export default class Status extends SnapshotCommand {
  static summary = 'Show nodes the way kubectl get does: phase, chain, height, pod readiness, restarts and config-hash state'
  static description =
    "-o wide adds the rest of the server columns (IP, validator, bond status, jailed, data usage), Pod recreations, and what the nodes themselves say (live height, age of the last block, peers, catching up), read from each running Pod's CometBFT RPC on 26657 through a port-forward."
  static examples = [
    '<%= config.bin %> status fullnode-0 -n cosmos',
    '<%= config.bin %> status --all -n cosmos -w',
    '<%= config.bin %> status -A -l validator=true -o wide',
    '<%= config.bin %> status --bundle examples/bundles/healthy.tgz -o wide',
    '<%= config.bin %> status --bundle examples/bundles/healthy.tgz -o yaml',
  ]
  static args = { name: Args.string({ description: 'ChainNode name' }) }
  static flags = {
    ...scopeFlags,
    ...SnapshotCommand.snapshotFlags,
    output: outputFlag(['text', 'wide', 'json', 'yaml']),
    'no-headers': Flags.boolean({ description: 'print no header line' }),
    watch: Flags.boolean({ char: 'w', description: 'after the listing, print each node whose row changes (live only; polls every 2s)' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Status)
    await this.setupOutput(flags)
    if (flags.watch) requireLive(flags.bundle)
    // The wide columns come from the nodes: one /status and /net_info each, no second reading.
    const chainProbe = flags.output === 'wide' ? { windowMs: 0, timeoutMs: CHAIN_PROBE_TIMEOUT_MS } : undefined
    // No node logs; the manager log says why a node's reconciles fail.
    const read = () => this.snapshots({ ...flags, name: args.name }, false, 'none', undefined, new Set(['operator']), chainProbe)
    const snapshots = await read()
    const text = (snapshot: Snapshot, rows: StatusRow[], noHeaders = flags['no-headers']) =>
      renderStatusText(new SnapshotIndex(snapshot), rows, { withNamespace: snapshot.scope.kind === 'all', wide: flags.output === 'wide', noHeaders })
    if (flags.output === 'json' || flags.output === 'yaml') {
      const nodes = snapshots.flatMap((snapshot) => statusRows(new SnapshotIndex(snapshot)).map((row) => ({ context: snapshot.source.context, ...row })))
      const collectionErrors = snapshots.flatMap((s) => s.collectionErrors)
      this.print(structured(flags.output, { schemaVersion: 1, kind: 'NodeStatusList', nodes, collectionErrors }))
    } else {
      for (const snapshot of snapshots) {
        if (snapshots.length > 1) this.print(this.palette.paint('heading', `Cluster ${visible(snapshot.source.context)}`))
        const rows = statusRows(new SnapshotIndex(snapshot))
        this.print(rows.length ? fitWidth(text(snapshot, rows), tableWidth()) : noneFound(snapshot))
      }
    }
    if (snapshots.some((s) => s.collectionErrors.length > 0)) process.exitCode = 3
    if (!flags.watch) return
    const keyed = async (round: Snapshot[]) =>
      new Map(
        round.flatMap((snapshot) => {
          const rows = statusRows(new SnapshotIndex(snapshot))
          // The age column ticks on its own: a change is a change of anything else.
          const keys = rows.map((r) => ({
            key: `${snapshot.source.context}/${r.namespace}/${r.name}`,
            version: JSON.stringify({ ...r, server: { ...r.server, Age: '' } }),
          }))
          return [...keyedRows(keys, fitWidth(text(snapshot, rows, true), tableWidth()))]
        }),
      )
    await watchRows(
      async () => keyed(await read()),
      await keyed(snapshots),
      (line) => this.print(line),
    )
  }
}

/** kubectl's "No resources found in NS namespace." */
function noneFound(snapshot: Snapshot): string {
  return snapshot.scope.kind === 'all' || !snapshot.scope.namespace ? 'No ChainNodes found.' : `No ChainNodes found in ${snapshot.scope.namespace} namespace.`
}
