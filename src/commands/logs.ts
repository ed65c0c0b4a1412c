import { Args, Flags } from '@oclif/core'
import { SnapshotCommand } from '../base/snapshot-command.js'
import { onInterrupt } from '../cleanup.js'
import { parseDuration } from '../duration.js'
import { usageError } from '../errors.js'
import { visible } from '../render/visible.js'
import { CONTAINER_CHOICES, bundleLines, followLive, logSources, noPreviousError, readLive, type LogQuery } from '../services/logs.js'
import { SnapshotIndex } from '../snapshot/index.js'

export default class Logs extends SnapshotCommand {
  static summary = 'Logs of a node: the chain binary, node-utils, the signer gate, or the operator'
  static description =
    '`-c app` is the chain binary whatever its container is called (app on the 5.0.0 line, the binary name before); `-c gate` is wait-cosmosigner-discovery.'
  static examples = [
    '<%= config.bin %> logs fullnode-0 -n cosmos',
    '<%= config.bin %> logs fullnode-0 -c node-utils --grep profil',
    '<%= config.bin %> logs fullnode-0 -c all --previous',
    '<%= config.bin %> logs fullnode-0 -c operator --since 10m',
    '<%= config.bin %> logs stuck-0 --bundle examples/bundles/not-syncing.tgz --since 15m --tail 5',
  ]
  static args = { name: Args.string({ description: 'ChainNode name', required: true }) }
  static flags = {
    ...SnapshotCommand.snapshotFlags,
    container: Flags.string({ char: 'c', description: `container: ${CONTAINER_CHOICES.join('|')} or a container name`, default: 'app' }),
    previous: Flags.boolean({ char: 'p', description: 'the previous run of the container' }),
    since: Flags.string({ description: 'only lines newer than this (e.g. 10m)' }),
    follow: Flags.boolean({ char: 'f', description: 'stream new lines until Ctrl-C' }),
    grep: Flags.string({ description: 'only lines matching this regular expression' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Logs)
    await this.setupOutput(flags)
    if (flags.follow && flags.bundle) throw usageError('--follow needs a live cluster', 'drop --bundle or --follow')
    const query: LogQuery = {
      previous: flags.previous,
      tailLines: flags.tail,
      sinceSeconds: flags.since ? Math.ceil(parseDuration(flags.since, '--since') / 1000) : undefined,
      grep: flags.grep ? compile(flags.grep) : undefined,
      prefix: flags.container === 'all' || flags.container === 'operator',
      // Bundles are redacted when read; live text is masked here.
      redact: !flags['no-redact'] && !flags.bundle,
    }
    const [snapshot] = await this.snapshots({ ...flags, name: args.name, tail: flags.tail }, true, flags.bundle ? 'all' : 'none')
    const index = new SnapshotIndex(snapshot)
    const sources = logSources(index, index.chainNodes()[0], flags.container)
    if (flags.bundle) {
      const found = sources.map((source) => ({ source, lines: bundleLines(index, source, query) }))
      // -c all --previous shows the containers that did restart; an error only when none did.
      const missing = found.find((f) => f.lines === undefined)
      if (query.previous && missing && (sources.length === 1 || found.every((f) => f.lines === undefined))) throw noPreviousError(missing.source)
      for (const { source, lines } of found) {
        if (lines === undefined || query.tailLines === 0) continue
        this.print(
          lines.map(visible).join('\n') ||
            `(no ${query.previous ? 'previous ' : ''}log of ${source.label} in the bundle${query.sinceSeconds ? ` since ${flags.since}` : ''})`,
        )
      }
      return
    }
    const { client } = await this.connect(flags)
    if (!flags.follow) {
      for (const lines of await Promise.all(sources.map((source) => readLive(client, source, query))))
        if (lines.length) this.print(lines.map(visible).join('\n'))
      return
    }
    const abort = new AbortController()
    const release = onInterrupt(() => abort.abort())
    try {
      await Promise.all(sources.map((source) => followLive(client, source, query, (line) => this.print(visible(line)), abort.signal)))
    } finally {
      release()
    }
  }
}

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern)
  } catch {
    throw usageError(`--grep "${pattern}" is not a valid regular expression`, 'escape special characters, e.g. --grep "can\'t get pubkey"')
  }
}
