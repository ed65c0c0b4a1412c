import { credentialsFor } from '../cluster/auth.js'
import { collectSnapshot } from '../cluster/collect.js'
import type { Connection } from '../cluster/connection.js'
import { ApiError, KubeClient } from '../cluster/kube-client.js'
import { resolveContext } from '../cluster/kubeconfig.js'
import { PodHttpPool } from '../cluster/pod-http.js'
import { DEFAULT_SIGNING_WINDOW } from '../cluster/signing-probe.js'
import { Redactor } from '../snapshot/redact.js'
import { SNAPSHOT_FORMAT_VERSION, type FailureReason, type Snapshot } from '../snapshot/types.js'
import { ExitCode, UserError } from '../util/errors.js'
import { recall, remember } from './cluster-memory.js'
import {
  resolveScope,
  type KubeFlags,
  type ReadReporter,
  type SnapshotFlags,
  type SnapshotReads,
  type SnapshotRequest,
  type SnapshotSource,
} from './snapshot-source.js'

/** The chain probe's default, for commands (status -o wide) that may not name cluster/ themselves. */
export { DEFAULT_SIGNING_WINDOW }

/** The contexts a run reads: --context a,b names several clusters; none is the kubeconfig's current context. */
export function contextNames(flags: Pick<KubeFlags, 'context'>): (string | undefined)[] {
  const named = (flags.context ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
  return named.length ? named : [undefined]
}

/** The clusters of the kubeconfig's contexts, read through one client each; the clients close with the run. */
export class LiveSource implements SnapshotSource {
  private readonly clients: KubeClient[] = []

  constructor(
    private readonly cliVersion: string,
    private readonly reporter: ReadReporter,
  ) {}

  private debugLine(text: string): void {
    this.reporter.debugLine(text)
  }

  async connect(flags: KubeFlags, contextName = flags.context): Promise<Connection> {
    const timeoutMs = flags['request-timeout'] || 24 * 3_600_000
    const runMs = flags.timeout ?? 0
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
      onForward: (namespace, pod, ports, again) =>
        this.debugLine(`port-forward ${namespace}/${pod}:${[ports].flat().join(',')}${again ? ' (again: the last one closed with no answer)' : ''}`),
      onSecure: (namespace, pod, resumed) => this.debugLine(`port-forward ${namespace}/${pod}: ${resumed ? 'TLS session resumed' : 'full TLS handshake'}`),
      onPodAnswers: (target, paths, ms, failure) =>
        this.debugLine(
          `${failure ? `no answer (${failure})` : `${paths.length} answer(s)`} in ${ms.toFixed(0)} ms, at ${(process.uptime() * 1000).toFixed(0)} ms: ` +
            `${target} ${paths[0]}${paths.length > 1 ? ' ...' : ''}`,
        ),
    }
  }

  /** One snapshot per context (--context a,b reads several clusters, in parallel). */
  async read(flags: SnapshotFlags, reads: SnapshotReads): Promise<Snapshot[]> {
    const contexts = contextNames(flags)
    const spinner = await this.reporter.progress('reading the cluster')
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
      return read.map((r, i) =>
        r.status === 'fulfilled' ? r.value : unreadCluster(contexts[i] ?? '', servers.get(contexts[i]) ?? '', r.reason, this.cliVersion),
      )
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
    const recalled = recall(connection.client.server, scope)
    const request = {
      scope,
      cliVersion: this.cliVersion,
      redact: !flags['no-redact'],
      tailLines: flags.tail ?? 500,
      maxLogBytes: 2 * 1024 * 1024,
      logs,
      logSample: flags['log-sample'],
      logRoles,
      chainProbe,
      objects,
      operatorPods: recalled.operatorPods,
      probedPorts: recalled.probedPorts,
      namespaces: recalled.namespaces,
    }
    const snapshot = await liveSnapshot(connection, request)
    this.debugLine(`${connection.context.contextName}: ${snapshot.stats.requests} API requests in ${snapshot.stats.durationMs} ms`)
    if (probe) snapshot.probes.push(...(await probe(connection, snapshot)))
    return remember(snapshot, recalled)
  }

  close(): void {
    for (const client of this.clients) {
      this.debugLine(`${client.requestCount} API requests to ${client.server}`)
      client.close()
    }
    this.clients.length = 0
  }
}

/** A cluster that could not be read at all: no objects, and the one error that says why (exit code 3). */
function unreadCluster(context: string, server: string, error: unknown, cliVersion: string): Snapshot {
  const message = error instanceof Error ? error.message : String(error)
  // The reason comes with the error from where the read failed (cluster/), never from its wording.
  const reason: FailureReason = error instanceof ApiError || error instanceof UserError ? (error.reason ?? 'error') : 'error'
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

/** One RPC read through a port-forward; a node that hangs costs the run no more than this. */
export const CHAIN_PROBE_TIMEOUT_MS = 5000

export async function liveSnapshot(connection: Connection, request: SnapshotRequest): Promise<Snapshot> {
  const { chainProbe } = request
  // One port-forward per Pod port for the whole run, reused by every probe that reads it.
  const pods =
    chainProbe &&
    new PodHttpPool({
      server: connection.client.server,
      credentials: connection.credentials,
      timeoutMs: chainProbe.timeoutMs,
      onForward: connection.onForward,
      onSecure: connection.onSecure,
      onAnswers: connection.onPodAnswers,
    })
  try {
    return await collectSnapshot(connection.client, {
      scope: request.scope,
      cliVersion: request.cliVersion,
      contextName: connection.context.contextName,
      logs: {
        mode: request.logs ?? 'auto',
        sample: request.logSample,
        tailLines: request.tailLines,
        sinceSeconds: request.sinceSeconds,
        maxBytes: request.maxLogBytes,
        roles: request.logRoles,
      },
      redactor: request.redact ? new Redactor() : undefined,
      objects: request.objects,
      watched: connection.watched,
      operatorPods: request.operatorPods,
      probedPorts: request.probedPorts,
      namespaces: request.namespaces,
      chain: pods && {
        windowMs: chainProbe.windowMs,
        signingWindow: chainProbe.signingWindow,
        nodeUtils: chainProbe.nodeUtils,
        get: (namespace, pod, port, paths, maxBytes = 64 * 1024) => pods.get(namespace, pod, port, paths, maxBytes),
        warm: pods.warm,
      },
    })
  } finally {
    pods?.close()
  }
}
