import { Args, Flags } from '@oclif/core'
import { outputFlag } from '../../base/command.js'
import { SnapshotCommand } from '../../base/snapshot-command.js'
import { renderConfigHash } from '../../render/config-hash.js'
import { configState } from '../../rules/config-state.js'
import { watchConfigHash } from '../../services/config-watch.js'
import { SnapshotIndex } from '../../snapshot/index.js'
import { STATE_DIR_HELP } from '../../state-dir.js'

export default class ConfigHash extends SnapshotCommand {
  static summary = "Compare a node's config-hash with the rendered configuration and attribute Pod restarts"
  static description = `Verdicts: in sync; configuration changed and restart pending or deferred; restarted because the configuration changed (intentional); restarted with the same hash (unexpected, with the operator log lines and Events around the restart).
Every read of a node by any command records its hashes and Pod in history.json under the state directory (${STATE_DIR_HELP}) so restarts can be compared across runs.`
  static examples = [
    '<%= config.bin %> config-hash fullnode-0 -n cosmos',
    '<%= config.bin %> config-hash fullnode-0 --watch',
    '<%= config.bin %> config-hash cfg-0 --bundle examples/bundles/config-change-restart.tgz',
  ]
  static args = { name: Args.string({ description: 'ChainNode name', required: true }) }
  static flags = {
    ...SnapshotCommand.snapshotFlags,
    output: outputFlag(['text', 'json']),
    watch: Flags.boolean({ char: 'w', description: 'print every hash change and restart as it happens, with the configuration diff' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigHash)
    await this.setupOutput(flags)
    const [snapshot] = await this.snapshots({ ...flags, name: args.name }, true)
    const index = new SnapshotIndex(snapshot)
    const node = index.chainNodes()[0]
    const key = `${node.metadata.namespace}/${node.metadata.name}`
    const state = configState(index, node, Date.parse(snapshot.collectedAt))
    const history = (snapshot.observations ?? []).filter((o) => o.node === key)
    if (flags.output === 'json') this.print(JSON.stringify({ schemaVersion: 1, kind: 'ConfigHashReport', node: key, ...state, history }, null, 2))
    else this.print(renderConfigHash(key, state, history, undefined, this.palette))
    if (flags.watch) await watchConfigHash((await this.connect(flags)).client, snapshot, node, (line) => this.print(line))
  }
}
