import { Args } from '@oclif/core'
import { SnapshotCommand } from '../base/snapshot-command.js'
import { describeChainNode, describePod } from '../render/describe.js'
import { fitWidth, tableWidth } from '../render/width.js'
import { visible } from '../render/visible.js'
import { SnapshotIndex } from '../snapshot/index.js'

export default class Describe extends SnapshotCommand {
  static summary = 'Describe a ChainNode and its Pod with their Events, the way kubectl describe does'
  static examples = ['<%= config.bin %> describe fullnode-0 -n cosmos', '<%= config.bin %> describe pull-0 --bundle examples/bundles/image-pull.tgz']
  static args = { name: Args.string({ description: 'ChainNode name', required: true }) }
  static flags = { ...SnapshotCommand.snapshotFlags }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Describe)
    await this.setupOutput(flags)
    const [snapshot] = await this.snapshots({ ...flags, name: args.name }, true, 'none')
    const index = new SnapshotIndex(snapshot)
    // Ages are counted to when the snapshot was taken: offline, that is when the bundle was collected.
    const now = Date.parse(snapshot.collectedAt)
    const sections = index.chainNodes().flatMap((node) => {
      const pod = index.podOf(node)
      return [
        describeChainNode(index, node, now),
        '',
        pod ? describePod(index, pod, now) : `Pod ${visible(node.metadata.name)}: <none> (no Pod controlled by this ChainNode)`,
      ]
    })
    this.print(fitWidth(sections.join('\n'), tableWidth()))
    if (snapshot.collectionErrors.length > 0) process.exitCode = 3
  }
}
