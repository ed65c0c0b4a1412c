import { Args, Flags } from '@oclif/core'
import { outputFlag } from '../../command.js'
import { SnapshotCommand } from '../../snapshot-command.js'
import { diffConfigs, renderChanges } from '../../../../analysis/config-diff.js'
import { usageError } from '../../../../util/errors.js'
import { annotation, SnapshotIndex } from '../../../../snapshot/index.js'
import type { Snapshot } from '../../../../snapshot/types.js'

export default class ConfigHashDiff extends SnapshotCommand {
  static summary = 'Key-level difference of the rendered configuration between two bundles, or a bundle and the live cluster'
  static description = 'TOML and JSON files are parsed, so comments and layout do not count. Says whether a Pod restart followed (the Pod uid changed).'
  static examples = [
    '<%= config.bin %> config-hash diff examples/bundles/config-change-restart.tgz examples/bundles/config-change-restart.tgz --node cfg-1',
    '<%= config.bin %> config-hash diff examples/bundles/config-change-restart.tgz live --node cfg-1 -n sc-config-change-restart',
  ]
  static args = {
    before: Args.string({ description: 'bundle (file or directory)', required: true }),
    after: Args.string({ description: 'bundle, or "live" for the cluster', required: true }),
  }
  static flags = {
    ...SnapshotCommand.snapshotFlags,
    node: Flags.string({ description: 'ChainNode to compare (needed when a bundle holds several)' }),
    output: outputFlag(['text', 'json']),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigHashDiff)
    await this.setupOutput(flags)
    const read = async (source: string) =>
      (
        await this.snapshots(
          source === 'live' ? { ...flags, bundle: undefined, name: flags.node } : { ...flags, bundle: source, name: flags.node, namespace: undefined },
          { nameRequired: source === 'live' },
        )
      )[0]
    const [before, after] = [await read(args.before), await read(args.after)]
    const name = flags.node ?? onlyNode(before, args.before)
    const side = (snapshot: Snapshot) => {
      const index = new SnapshotIndex(snapshot)
      const node = index.chainNodes().find((n) => n.metadata.name === name)
      if (!node) {
        const held = index.chainNodes().map((n) => n.metadata.name)
        throw usageError(`chainnode "${name}" is not in ${snapshot === before ? args.before : args.after}`, `it holds: ${held.join(', ') || 'no nodes'}`)
      }
      return { configMap: index.configMapOf(node), pod: index.podOf(node) }
    }
    const [a, b] = [side(before), side(after)]
    const changes = diffConfigs(a.configMap?.data ?? {}, b.configMap?.data ?? {})
    const hash = (obj: typeof a.pod) => obj?.metadata.annotations?.[annotation('config-hash')]
    const restarted = Boolean(a.pod && b.pod && a.pod.metadata.uid !== b.pod.metadata.uid)
    const summary = {
      node: name,
      configHash: { before: hash(a.configMap), after: hash(b.configMap) },
      restartFollowed: restarted,
      pod: { before: a.pod?.metadata.uid, after: b.pod?.metadata.uid },
      changes,
    }
    if (flags.output === 'json') return this.print(JSON.stringify({ schemaVersion: 1, kind: 'ConfigDiff', ...summary }, null, 2))
    this.print(
      [
        `ChainNode ${name}: config-hash ${summary.configHash.before ?? '<none>'} -> ${summary.configHash.after ?? '<none>'}`,
        renderChanges(changes),
        restarted
          ? `A restart followed: Pod ${summary.pod.before} -> ${summary.pod.after}.`
          : `No restart: the Pod is the same (${summary.pod.after ?? '<none>'}).`,
      ].join('\n'),
    )
  }
}

function onlyNode(snapshot: Snapshot, source: string): string {
  const nodes = new SnapshotIndex(snapshot).chainNodes().map((o) => o.metadata.name)
  if (nodes.length === 0) throw usageError(`${source} holds no ChainNode`, 'pass a bundle collected for a node')
  if (nodes.length > 1) throw usageError(`${source} holds ${nodes.length} nodes: ${nodes.join(', ')}`, `pick one with --node, e.g. --node ${nodes[0]}`)
  return nodes[0]
}
