import { ExitCode } from '../util/errors.js'
import { describeChainNode, describePod } from '../render/describe.js'
import { visible } from '../render/visible.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, REQUIRED_NODE_ARG, SNAPSHOT_FLAGS, type InputOf } from './flag-spec.js'
import type { Session } from './session.js'

export const DESCRIBE_COMMAND = defineCommand({
  summary: 'Describe a ChainNode and its Pod with their Events, the way kubectl describe does',
  examples: ['<%= config.bin %> describe fullnode-0 -n cosmos', '<%= config.bin %> describe pull-0 --bundle examples/bundles/image-pull.tgz'],
  args: REQUIRED_NODE_ARG,
  flags: { ...GLOBAL_FLAGS, ...KUBE_FLAGS, ...SNAPSHOT_FLAGS },
})

export async function runDescribe(input: InputOf<typeof DESCRIBE_COMMAND>, session: Session): Promise<ExitCode> {
  const objects = { kinds: ['Pod', 'Event', 'ConfigMap'], operator: false }
  const [snapshot] = await session.reader.snapshots(input, { nameRequired: true, logs: 'none', objects })
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
  // Nothing is cut, as kubectl describe cuts nothing: a long value wraps in the terminal.
  session.output.print(sections.join('\n'))
  return snapshot.collectionErrors.length > 0 ? ExitCode.Incomplete : ExitCode.Clean
}
