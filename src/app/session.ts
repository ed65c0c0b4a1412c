import { install as installInterruptHandler } from '../util/cleanup.js'
import { credentialsFor } from '../cluster/auth.js'
import type { Connection } from '../cluster/connection.js'
import type { LogMode } from '../cluster/collect.js'
import { ApiError, KubeClient } from '../cluster/kube-client.js'
import { resolveContext } from '../cluster/kubeconfig.js'
import { parseDuration } from '../util/duration.js'
import { recordHistory } from './history-store.js'
import { lastOperatorPods, rememberOperatorPods } from './operator-pods.js'
import { colorWanted, makePalette, plainPalette, type Palette } from '../render/palette.js'
import { bundleSnapshot, liveSnapshot, narrowBySelector, type SnapshotRequest } from './snapshots.js'
import { parseLabelSelector } from '../snapshot/label-selector.js'
import type { LogRole } from '../snapshot/node-layout.js'
import { SNAPSHOT_FORMAT_VERSION, type FailureReason, type ProbeRecord, type Snapshot } from '../snapshot/types.js'
import { ExitCode, UserError } from '../util/errors.js'
import { progress } from '../render/progress.js'
import { resolveScope, type ScopeInput } from '../snapshot/scope.js'
import { allowColour, writeStderr, writeStdout, type OutputFormat } from '../util/output.js'

export type { Connection }

export interface KubeFlags {
  kubeconfig?: string
  context?: string
  namespace?: string
  'request-timeout': string
  /** Deadline of the whole run (doctor --timeout). */
  timeout?: string
}

export interface SnapshotFlags extends KubeFlags, ScopeInput {
  bundle?: string
  'no-redact'?: boolean
  tail?: number
  /** Look-alike nodes whose logs are read per group (doctor --log-sample). */
  'log-sample'?: number
}

export type Probe = (connection: Connection, snapshot: Snapshot) => Promise<ProbeRecord[]>

/** What a command reads besides the objects in scope, and whether its scope must name one node. */
export interface SnapshotReads {
  nameRequired?: boolean
  /** With no NAME, --set, --all or -A, read the namespace's nodes (a listing, like kubectl get). */
  namespaceByDefault?: boolean
  logs?: LogMode
  /** Only the logs of these roles (what the rules of a doctor run read). */
  logRoles?: ReadonlySet<LogRole>
  /** Probes run after collection (the signer's). */
  probe?: Probe
  /** The nodes' own RPC and node-utils, started with the Pod list. */
  chainProbe?: SnapshotRequest['chainProbe']
  /** Only what the command shows (see ObjectReads); undefined reads what every rule needs. */
  objects?: SnapshotRequest['objects']
}

/** The contexts a run reads: --context a,b names several clusters; none is the kubeconfig's current context. */
export function contextNames(flags: Pick<KubeFlags, 'context'>): (string | undefined)[] {
  const named = (flags.context ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
  return named.length ? named : [undefined]
}

/** The one flag that can put a key into a public ticket says so where a reader looks. */
export const UNREDACTED_WARNING = '--no-redact: keys, tokens, mnemonics and passwords are shown as they are; do not share this output'
export const UNREDACTED_MARK = '[UNREDACTED: --no-redact was given; secrets in this output are not masked]'

/**
 * What every command run shares, with no CLI framework behind it: colour, debug lines, output,
 * connections to clusters and snapshots. The oclif base commands and the quick start both use it.
 */
export class Session {
  palette: Palette = plainPalette
  debugEnabled = false
  private readonly clients: KubeClient[] = []
  /** --no-redact was given: said once on stderr, and text output says so on its first line. */
  private unredacted: 'no' | 'unmarked' | 'marked' = 'no'

  /** root: where package.json and docs/ are (the package, or the single executable's directory). */
  constructor(
    readonly version: string,
    readonly root: string,
  ) {}

  async setupOutput(flags: { 'no-color'?: boolean; debug?: boolean }): Promise<void> {
    // Ctrl-C at any stage must leave no partial file, listener or port-forward behind.
    installInterruptHandler()
    this.debugEnabled = Boolean(flags.debug) || Boolean(process.env.KUBECTL_CHAINNODE_DEBUG)
    this.palette = await makePalette(colorWanted(process.stdout, Boolean(flags['no-color'])))
    allowColour(this.palette.enabled)
  }

  debugLine(text: string): void {
    if (this.debugEnabled) writeStderr(`debug: ${text}\n`)
  }

  /** Write to stdout through the output guard (util/output.ts); JSON and XML stay exact and parseable. */
  print(text: string, format: OutputFormat = 'text'): void {
    const marked = format === 'text' && this.unredacted === 'unmarked' ? `${UNREDACTED_MARK}\n${text}` : text
    if (marked !== text) this.unredacted = 'marked'
    writeStdout(marked.endsWith('\n') ? marked : `${marked}\n`, format)
  }

  async connect(flags: KubeFlags, contextName = flags.context): Promise<Connection> {
    const timeoutMs = parseDuration(flags['request-timeout'], '--request-timeout') || 24 * 3_600_000
    const runMs = flags.timeout ? parseDuration(flags.timeout, '--timeout') : 0
    // From the start of the process: the deadline is the user's, and it covers start-up and the kubeconfig too.
    const deadlineAt = runMs > 0 ? Date.now() - process.uptime() * 1000 + runMs : undefined
    const context = await resolveContext({ kubeconfig: flags.kubeconfig, context: contextName, namespace: flags.namespace, deadlineAt })
    const credentials = await credentialsFor(context)
    const client = new KubeClient({
      server: context.cluster.server,
      credentials,
      timeoutMs,
      ...(deadlineAt !== undefined ? { deadlineAt } : {}),
      concurrency: 32,
      onRequest: (method, path) => this.debugLine(`${method} ${path}`),
      // kubectl -v=6 style, plus when the answer came in after the process started: where a run waits.
      onResponse: (path, status, ms, bytes) =>
        this.debugLine(`${status} in ${ms.toFixed(0)} ms, ${(bytes / 1024).toFixed(1)} kB, at ${(process.uptime() * 1000).toFixed(0)} ms: ${path}`),
    })
    this.clients.push(client)
    return {
      client,
      context,
      credentials,
      onForward: (namespace, pod, port) => this.debugLine(`port-forward ${namespace}/${pod}:${port}`),
      onPodAnswers: (target, paths, ms, failure) =>
        this.debugLine(
          `${failure ? `no answer (${failure})` : `${paths.length} answer(s)`} in ${ms.toFixed(0)} ms, at ${(process.uptime() * 1000).toFixed(0)} ms: ` +
            `${target} ${paths[0]}${paths.length > 1 ? ' ...' : ''}`,
        ),
    }
  }

  /** One snapshot per context (--context a,b reads several clusters), or the bundle's. */
  async snapshots(flags: SnapshotFlags, reads: SnapshotReads = {}): Promise<Snapshot[]> {
    // Checked before any read: a bad selector is an input error, whatever the cluster says.
    if (flags.selector) parseLabelSelector(flags.selector)
    const read = await this.readSnapshots(flags, reads)
    return flags.selector ? read.map((snapshot) => narrowBySelector(snapshot, flags.selector!)) : read
  }

  private async readSnapshots(flags: SnapshotFlags, reads: SnapshotReads): Promise<Snapshot[]> {
    if (flags['no-redact'] && this.unredacted === 'no') {
      this.unredacted = 'unmarked'
      writeStderr(`warning: ${UNREDACTED_WARNING}\n`)
    }
    if (flags.bundle) return [await this.bundleSnapshot(flags, flags.bundle, reads, !flags['no-redact'])]
    const contexts = contextNames(flags)
    const spinner = await progress('reading the cluster')
    try {
      const servers = new Map<string | undefined, string>()
      const read = await Promise.allSettled(
        contexts.map(async (contextName) => {
          const connection = await this.connect(flags, contextName)
          servers.set(contextName, connection.client.server)
          return this.readLive(connection, flags, reads)
        }),
      )
      // Several clusters: one that cannot be read (unreachable, forbidden) is a line of the report, not the end of it.
      // An input error (a context the kubeconfig lacks) still stops the run, and so does every cluster failing.
      const failures = read.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
      const inputError = failures.find((e) => e instanceof UserError && e.exitCode === ExitCode.Usage)
      if (inputError || failures.length === read.length) throw inputError ?? failures[0]
      return read.map((r, i) => (r.status === 'fulfilled' ? r.value : unreadCluster(contexts[i] ?? '', servers.get(contexts[i]) ?? '', r.reason, this.version)))
    } finally {
      spinner.stop()
    }
  }

  /** One snapshot through a connection made earlier (serve reads through the same connection every cycle). */
  async readLive(
    connection: Connection,
    flags: SnapshotFlags,
    { nameRequired = false, namespaceByDefault = false, logs, probe, logRoles, chainProbe, objects }: SnapshotReads,
  ): Promise<Snapshot> {
    const scope = resolveScope(flags, connection.context.namespace, { nameRequired, namespaceByDefault })
    const request = {
      scope,
      cliVersion: this.version,
      redact: !flags['no-redact'],
      tailLines: flags.tail ?? 500,
      maxLogBytes: 2 * 1024 * 1024,
      logs,
      logSample: flags['log-sample'],
      logRoles,
      chainProbe,
      objects,
      operatorPods: lastOperatorPods(connection.client.server, scope),
    }
    const snapshot = await liveSnapshot(connection, request)
    await rememberOperatorPods(snapshot, request.operatorPods)
    this.debugLine(`${connection.context.contextName}: ${snapshot.stats.requests} API requests in ${snapshot.stats.durationMs} ms`)
    if (probe) snapshot.probes.push(...(await probe(connection, snapshot)))
    return recordHistory(snapshot)
  }

  close(): void {
    for (const client of this.clients) {
      this.debugLine(`${client.requestCount} API requests to ${client.server}`)
      client.close()
    }
    this.clients.length = 0
  }

  private async bundleSnapshot(flags: SnapshotFlags, bundle: string, reads: SnapshotReads, redact: boolean): Promise<Snapshot> {
    const scope = resolveScope(flags, flags.namespace, { nameRequired: reads.nameRequired ?? false, wholeByDefault: true })
    const spinner = await progress(`reading bundle ${bundle}`)
    // A run that reads node logs (doctor, timeline) is told which of them the bundle lacks, as a live read that failed.
    const lacking = reads.logs !== 'none' && reads.logRoles ? reads.logRoles : undefined
    try {
      return await bundleSnapshot(bundle, { scope, redact, lacking }, (what) => {
        spinner.update(`reading bundle ${bundle}: ${what}`)
        this.debugLine(`bundle: ${what}, at ${(process.uptime() * 1000).toFixed(0)} ms`)
      })
    } finally {
      spinner.stop()
    }
  }
}

/** A cluster that could not be read at all: no objects, and the one error that says why (exit code 3). */
function unreadCluster(context: string, server: string, error: unknown, cliVersion: string): Snapshot {
  const message = error instanceof Error ? error.message : String(error)
  // The reads word their failures for the user (a UserError): the reason is read back from those words.
  const reason: FailureReason =
    error instanceof ApiError
      ? error.reason
      : /cannot reach/i.test(message)
        ? 'unreachable'
        : /forbidden|not allowed/i.test(message)
          ? 'forbidden'
          : /unauthori[sz]ed/i.test(message)
            ? 'unauthorized'
            : /timed out|deadline/i.test(message)
              ? 'timeout'
              : 'error'
  return {
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    collectedAt: new Date().toISOString(),
    cliVersion,
    source: { context, server },
    scope: { kind: 'all' },
    objects: [],
    chainNodeRows: [],
    logs: [],
    probes: [],
    collectionErrors: [{ what: `the cluster of context ${context}`, reason, message }],
    stats: { requests: 0, durationMs: 0 },
    redactions: 0,
  }
}
