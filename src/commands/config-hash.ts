import { ExitCode } from '../util/errors.js'
import { renderConfigDiff, renderConfigHash, renderConfigWatchEvent } from '../render/config-hash.js'
import { compareConfigs } from '../analysis/config-diff.js'
import { configState } from '../analysis/config-state.js'
import { watchConfigHash } from '../app/config-watch.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, outputSpec, REQUIRED_NODE_ARG, SNAPSHOT_FLAGS, type InputOf } from './flag-spec.js'
import { outputFormatOf } from '../util/output.js'
import type { Session } from './session.js'
import { STATE_DIR_HELP } from '../util/state-dir.js'

export const CONFIG_HASH_COMMAND = defineCommand({
  summary: "Compare a node's config-hash with the rendered configuration and attribute Pod restarts",
  description: `Verdicts: in sync; configuration changed and restart pending or deferred; restarted because the configuration changed (intentional); restarted with the same hash (unexpected, with the operator log lines and Events around the restart).
Every read of a node by any command records its hashes and Pod in history.json under the state directory (${STATE_DIR_HELP}) so restarts can be compared across runs.`,
  examples: [
    '<%= config.bin %> config-hash fullnode-0 -n cosmos',
    '<%= config.bin %> config-hash fullnode-0 --watch',
    '<%= config.bin %> config-hash cfg-0 --bundle examples/bundles/config-change-restart.tgz',
  ],

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

export async function runConfigHash(input: InputOf<typeof CONFIG_HASH_COMMAND>, session: Session): Promise<ExitCode> {
  const [snapshot] = await session.reader.snapshots(input, { nameRequired: true })
  const index = new SnapshotIndex(snapshot)
  const node = index.chainNodes()[0]
  const key = `${node.metadata.namespace}/${node.metadata.name}`
  const state = configState(index, node, Date.parse(snapshot.collectedAt))
  const history = (snapshot.observations ?? []).filter((o) => o.node === key)
  if (input.output === 'json')
    session.output.print(JSON.stringify({ schemaVersion: 1, kind: 'ConfigHashReport', node: key, ...state, history }, null, 2), 'json')
  else session.output.print(renderConfigHash(key, state, history, undefined, session.output.palette))
  if (input.watch)
    await watchConfigHash(
      (await session.reader.connect(input)).client,
      snapshot,
      node,
      (event) => session.output.print(renderConfigWatchEvent(event)),
      !input['no-redact'],
    )
  return ExitCode.Clean
}

export const CONFIG_HASH_DIFF_COMMAND = defineCommand({
  summary: 'Key-level difference of the rendered configuration between two bundles, or a bundle and the live cluster',
  description: 'TOML and JSON files are parsed, so comments and layout do not count. Says whether a Pod restart followed (the Pod uid changed).',
  examples: [
    '<%= config.bin %> config-hash diff examples/bundles/config-change-restart.tgz examples/bundles/config-change-restart.tgz --node cfg-1',
    '<%= config.bin %> config-hash diff examples/bundles/config-change-restart.tgz live --node cfg-1 -n sc-config-change-restart',
  ],

  args: {
    before: { description: 'bundle (file or directory)', required: true },
    after: { description: 'bundle, or "live" for the cluster', required: true },
  },
  flags: {
    ...GLOBAL_FLAGS,
    ...KUBE_FLAGS,
    ...SNAPSHOT_FLAGS,
    node: { type: 'string', description: 'ChainNode to compare (needed when a bundle holds several)' },
    output: outputSpec(['text', 'json']),
  },
})

export async function runConfigHashDiff(input: InputOf<typeof CONFIG_HASH_DIFF_COMMAND>, session: Session): Promise<ExitCode> {
  const read = async (source: string) => {
    const flags = source === 'live' ? { ...input, bundle: undefined, name: input.node } : { ...input, bundle: source, name: input.node, namespace: undefined }
    return { snapshot: (await session.reader.snapshots(flags, { nameRequired: source === 'live' }))[0], source }
  }
  const [before, after] = [await read(input.before), await read(input.after)]
  const comparison = compareConfigs(before, after, input.node)
  session.output.print(
    input.output === 'json' ? JSON.stringify({ schemaVersion: 1, kind: 'ConfigDiff', ...comparison }, null, 2) : renderConfigDiff(comparison),
    outputFormatOf(input.output),
  )
  return ExitCode.Clean
}
