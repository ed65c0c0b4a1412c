import { renderConfigHash } from '../render/config-hash.js'
import { configState } from '../analysis/config-state.js'
import { watchConfigHash } from '../app/config-watch.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, outputSpec, REQUIRED_NODE_ARG, SNAPSHOT_FLAGS, type InputOf } from './flag-spec.js'
import type { Session } from '../app/session.js'

export const CONFIG_HASH_COMMAND = defineCommand({
  args: REQUIRED_NODE_ARG,
  flags: {
    ...GLOBAL_FLAGS,
    ...KUBE_FLAGS,
    ...SNAPSHOT_FLAGS,
    output: outputSpec(['text', 'json']),
    watch: { type: 'boolean', char: 'w', description: 'print every hash change and restart as it happens, with the configuration diff' },
  },
  subcommands: ['diff'],
})

export async function runConfigHash(input: InputOf<typeof CONFIG_HASH_COMMAND>, session: Session): Promise<void> {
  await session.setupOutput(input)
  const [snapshot] = await session.snapshots(input, { nameRequired: true })
  const index = new SnapshotIndex(snapshot)
  const node = index.chainNodes()[0]
  const key = `${node.metadata.namespace}/${node.metadata.name}`
  const state = configState(index, node, Date.parse(snapshot.collectedAt))
  const history = (snapshot.observations ?? []).filter((o) => o.node === key)
  if (input.output === 'json') session.print(JSON.stringify({ schemaVersion: 1, kind: 'ConfigHashReport', node: key, ...state, history }, null, 2))
  else session.print(renderConfigHash(key, state, history, undefined, session.palette))
  if (input.watch) await watchConfigHash((await session.connect(input)).client, snapshot, node, (line) => session.print(line))
}
