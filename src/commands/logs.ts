import { writeStderr } from '../util/output.js'
import { onInterrupt } from '../util/cleanup.js'
import { parseDuration } from '../util/duration.js'
import { ExitCode, UserError, usageError } from '../util/errors.js'
import { visible } from '../render/visible.js'
import {
  CONTAINER_CHOICES,
  bundleLines,
  followLive,
  logSources,
  noPreviousError,
  readLive,
  unreadableLogLine,
  type LogQuery,
  type LogSource,
} from '../app/logs.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, REQUIRED_NODE_ARG, SNAPSHOT_FLAGS, type InputOf } from './flag-spec.js'
import type { Session } from './session.js'

export const LOGS_COMMAND = defineCommand({
  summary: 'Logs of a node: the chain binary, node-utils, the signer gate, or the operator',
  description:
    '`-c app` is the chain binary whatever its container is called (app on the 5.0.0 line, the binary name before); `-c gate` is wait-cosmosigner-discovery.',
  examples: [
    '<%= config.bin %> logs fullnode-0 -n cosmos',
    '<%= config.bin %> logs fullnode-0 -c node-utils --grep profil',
    '<%= config.bin %> logs fullnode-0 -c all --previous',
    '<%= config.bin %> logs fullnode-0 -c operator --since 10m',
    '<%= config.bin %> logs stuck-0 --bundle examples/bundles/not-syncing.tgz --since 15m --tail 5',
  ],

  args: REQUIRED_NODE_ARG,
  flags: {
    ...GLOBAL_FLAGS,
    ...KUBE_FLAGS,
    ...SNAPSHOT_FLAGS,
    container: { type: 'string', char: 'c', description: `container: ${CONTAINER_CHOICES.join('|')} or a container name`, default: 'app' },
    previous: { type: 'boolean', char: 'p', description: 'the previous run of the container' },
    since: { type: 'string', description: 'only lines newer than this (e.g. 10m)' },
    follow: { type: 'boolean', char: 'f', description: 'stream new lines until Ctrl-C' },
    grep: { type: 'string', description: 'only lines matching this regular expression' },
  },
})

export async function runLogs(input: InputOf<typeof LOGS_COMMAND>, session: Session): Promise<ExitCode> {
  if (input.follow && input.bundle) throw usageError('--follow needs a live cluster', 'drop --bundle or --follow')
  const query: LogQuery = {
    previous: input.previous,
    tailLines: input.tail,
    sinceSeconds: input.since ? Math.ceil(parseDuration(input.since, '--since') / 1000) : undefined,
    grep: input.grep ? compile(input.grep) : undefined,
    prefix: input.container === 'all' || input.container === 'operator',
    // Bundles are redacted when read; live text is masked here.
    redact: !input['no-redact'] && !input.bundle,
  }
  // Live, the snapshot only finds the containers (the operator's release for -c operator); their logs are read below.
  const objects = { kinds: ['Pod', 'ConfigMap'], operator: input.container === 'operator' }
  const [snapshot] = await session.reader.snapshots(input, { nameRequired: true, logs: input.bundle ? 'all' : 'none', logRoles: new Set(), objects })
  const index = new SnapshotIndex(snapshot)
  const sources = logSources(index, index.chainNodes()[0], input.container)
  if (input.bundle) {
    const found = sources.map((source) => ({ source, lines: bundleLines(index, source, query) }))
    // -c all --previous shows the containers that did restart; an error only when none did.
    const missing = found.find((f) => f.lines === undefined)
    if (query.previous && missing && (sources.length === 1 || found.every((f) => f.lines === undefined))) throw noPreviousError(missing.source)
    let unread = 0
    for (const { source, lines } of found) {
      if (lines === undefined) {
        const error = index.logsFor(source.namespace, source.pod, source.container, query.previous)?.error
        // -c all --previous skips the containers that never restarted, as it does live.
        if (!query.previous) unread += unreadable(unreadableLogLine(source, new Error(error ?? 'not in the bundle'), false))
        continue
      }
      if (query.tailLines === 0) continue
      session.output.print(
        lines.map(visible).join('\n') ||
          `(no ${query.previous ? 'previous ' : ''}log of ${source.label} in the bundle${query.sinceSeconds ? ` since ${input.since}` : ''})`,
      )
    }
    return unread ? ExitCode.Incomplete : ExitCode.Clean
  }
  const { client } = await session.reader.connect(input)
  // Each container on its own: one that cannot be read (waiting, deleted, refused) is one line on stderr.
  // -p on a container that never restarted is kubectl's usage error when it is the only one (or none did).
  const failed = (error: unknown, source: LogSource) =>
    error instanceof UserError ? (query.previous ? 0 : unreadable(error.message)) : unreadable(unreadableLogLine(source, error, query.previous))
  if (!input.follow) {
    const reads = await Promise.all(
      sources.map((source) =>
        readLive(client, source, query).then(
          (lines) => ({ source, lines }),
          (error: unknown) => ({ source, error }),
        ),
      ),
    )
    const noPrevious = reads.filter((r) => 'error' in r && r.error instanceof UserError)
    if (noPrevious.length === reads.length) throw (noPrevious[0] as { error: UserError }).error
    let unread = 0
    for (const read of reads) {
      if ('error' in read) unread += failed(read.error, read.source)
      else if (read.lines.length) session.output.print(read.lines.map(visible).join('\n'))
    }
    return unread ? ExitCode.Incomplete : ExitCode.Clean
  }
  const abort = new AbortController()
  const release = onInterrupt(() => abort.abort())
  try {
    const streams = sources.map((source) =>
      followLive(client, source, query, (line) => session.output.print(visible(line)), abort.signal).then(
        () => 0,
        (error: unknown) => failed(error, source),
      ),
    )
    return (await Promise.all(streams)).some(Boolean) ? ExitCode.Incomplete : ExitCode.Clean
  } finally {
    release()
  }
}

/** One line on stderr for a container whose log is out of reach; counts 1. */
function unreadable(line: string): number {
  writeStderr(`error: ${visible(line)}\n`)
  return 1
}

/** The user's own pattern, as a JavaScript RegExp: RE2 (util/go-regexp.ts) would add 190 KB to every start of logs. */
function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern)
  } catch {
    throw usageError(`--grep "${pattern}" is not a valid regular expression`, 'escape special characters, e.g. --grep "can\'t get pubkey"')
  }
}
