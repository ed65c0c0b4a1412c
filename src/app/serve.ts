import type { RuleSettings, Rule } from '../engine/define-rule.js'
import { startHttpServer, type HttpAnswer, type ListenAddress, type RunningServer } from '../cluster/http-server.js'
import { readingsOf, type ServeStatus } from '../analysis/serve-readings.js'
import { blindSources, mergeSources, sourcesOf } from '../analysis/serve-sources.js'
import type { DoctorResult } from '../engine/doctor-result.js'
import { WatchedLists } from '../cluster/watched-lists.js'
import { diagnoseYielding } from './doctor.js'
import type { Connection } from '../cluster/connection.js'
import { contextNames } from './live-source.js'
import type { ClusterReader } from './cluster-reader.js'
import type { SnapshotFlags, SnapshotReads } from './snapshot-source.js'

/** How the served answers are worded: render/serve-metrics.ts SERVE_RENDERING, handed over by the command. */
export interface ServeRendering {
  metrics: { contentType: string; render(status: ServeStatus): string }
  report(result: DoctorResult, version: string): string
}

export interface ServeOptions {
  listen: ListenAddress
  render: ServeRendering
  intervalMs: number
  flags: SnapshotFlags
  reads: SnapshotReads
  rules: readonly Rule[]
  settings: RuleSettings
  /** Whether the chain probe runs (chainnode_probe_success is written only then). */
  probed: boolean
  /** /readyz fails once this many cycles in a row could not read the API server (0: never). */
  unreadyAfter: number
  /** One line for the operator of the process (stderr). */
  log: (line: string) => void
}

const text = (status: number, body: string): HttpAnswer => ({ status, contentType: 'text/plain; charset=utf-8', body })

/**
 * `chainnode serve`: diagnose the scope every interval and answer /metrics, /healthz, /readyz and /report
 * from what the last cycle found. Cycles run one after another (a slow one delays the next, never overlaps
 * it); one that cannot read the cluster keeps the last readings and says so (chainnode_last_run_success 0).
 */
export class ServeLoop {
  private readonly status: ServeStatus
  private report?: string
  private rendered?: string
  private server?: RunningServer
  private connections: Connection[] = []
  /** Why the last cycle could not read the API server (for /readyz and the log). */
  private blindReason = ''
  private stopping = false
  private sleep?: NodeJS.Timeout
  private finished?: () => void

  constructor(
    private readonly reader: ClusterReader,
    private readonly options: ServeOptions,
  ) {
    this.status = {
      version: reader.cliVersion,
      nodeVersion: process.version,
      nodes: [],
      findings: [],
      cycles: 0,
      failedCycles: 0,
      lastRunSuccess: false,
      sources: [],
      blindInARow: 0,
      apiRequestsTotal: 0,
      watchedLists: 0,
    }
  }

  /** Connect (a bad kubeconfig is an input error before anything listens), then listen; returns the address. */
  async start(): Promise<{ host: string; port: number }> {
    const connections = await Promise.all(contextNames(this.options.flags).map((name) => this.reader.connect(this.options.flags, name)))
    // Each cycle reads the same lists: after the first, watches keep them current and a cycle lists none of them again.
    this.connections = connections.map((connection) => ({ ...connection, watched: new WatchedLists(connection.client) }))
    this.server = await startHttpServer(this.options.listen, {
      '/metrics': () => ({ status: 200, contentType: this.options.render.metrics.contentType, body: this.exposition() }),
      '/healthz': () => text(200, 'ok\n'),
      '/readyz': () => this.readiness(),
      '/report': () =>
        this.report
          ? { status: 200, contentType: 'application/json', body: this.report }
          : text(503, 'no report yet: the first diagnosis cycle has not finished\n'),
    })
    return { host: this.server.host, port: this.server.port }
  }

  /** Cycles until stop(); resolves once stopped, without waiting for a cycle under way. */
  run(): Promise<void> {
    return new Promise((resolve) => {
      this.finished = resolve
      void this.loop()
    })
  }

  /** Stop at once: no new cycle, no new scrape (SIGTERM). */
  stop(): void {
    if (this.stopping) return
    this.stopping = true
    if (this.sleep) clearTimeout(this.sleep)
    for (const connection of this.connections) connection.watched?.close()
    void (this.server?.close() ?? Promise.resolve()).then(() => this.finished?.())
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const started = Date.now()
      await this.cycle()
      if (this.stopping) return
      // One timer at a time, cleared by stop(): nothing piles up however many cycles run.
      await new Promise<void>((resolve) => {
        this.sleep = setTimeout(resolve, Math.max(0, this.options.intervalMs - (Date.now() - started)))
      })
    }
  }

  /**
   * The metrics change only when a cycle ends: rendered once then, not per scrape (a fleet's exposition is
   * tens of thousands of lines, and scrapes now arrive while a cycle runs).
   */
  private exposition(): string {
    return (this.rendered ??= this.options.render.metrics.render(this.status))
  }

  /** Ready once a cycle has read the cluster, and as long as fewer than --unready-after cycles in a row could not. */
  private readiness(): HttpAnswer {
    const { blindInARow, readingsAtSeconds } = this.status
    if (!this.report)
      return text(
        503,
        blindInARow > 0 ? `not ready: no cycle has read the cluster yet (${this.blindReason})\n` : 'the first diagnosis cycle has not finished\n',
      )
    const { unreadyAfter } = this.options
    if (unreadyAfter > 0 && blindInARow >= unreadyAfter) {
      const since = readingsAtSeconds === undefined ? '' : `; the readings served are from ${new Date(readingsAtSeconds * 1000).toISOString()}`
      return text(503, `not ready: the last ${blindInARow} cycles could not read the API server (${this.blindReason})${since}\n`)
    }
    return text(200, 'ready\n')
  }

  private requestCount(): number {
    return this.connections.reduce((sum, c) => sum + c.client.requestCount, 0)
  }

  private async cycle(): Promise<void> {
    const { flags, reads, rules, settings, probed, log } = this.options
    const started = Date.now()
    const requestsBefore = this.requestCount()
    const status = this.status
    try {
      const snapshots = await Promise.all(this.connections.map((connection) => this.reader.live.readLive(connection, flags, reads)))
      if (this.stopping) return
      const result = await diagnoseYielding(snapshots, rules, settings)
      if (this.stopping) return
      const sources = mergeSources(snapshots.map(sourcesOf))
      const collectionErrors = snapshots.flatMap((snapshot) => snapshot.collectionErrors)
      const reports = result.clusters.map((c) => c.report)
      status.sources = sources
      status.lastRunSuccess = collectionErrors.length === 0 && reports.every((r) => r.ruleErrors.length === 0)
      this.report = this.options.render.report(result, this.reader.cliVersion)
      const answered = sources.find((h) => h.source === 'apiserver')?.up !== false
      if (answered) {
        const several = this.connections.length > 1
        const readings = snapshots.map((snapshot, i) => readingsOf(snapshot, result.clusters[i], probed, several ? snapshot.source.context : undefined))
        status.nodes = readings.flatMap((r) => r.nodes)
        status.findings = readings.flatMap((r) => r.findings)
        status.readingsAtSeconds = Math.floor(started / 1000)
        status.blindInARow = 0
      } else {
        // Lists the API server did not answer are unknown, not empty: the last readings stand, and age.
        status.blindInARow++
        this.blindReason = collectionErrors.find((e) => !e.what.startsWith('logs of '))?.message ?? 'reads went unanswered'
      }
      if (status.lastRunSuccess) status.lastSuccessAtSeconds = Math.floor(Date.now() / 1000)
      else
        log(
          `cycle ${status.cycles + 1}: ${collectionErrors.length} reads failed (see /report)${answered ? '' : ', the API server did not answer: keeping the last readings'}`,
        )
    } catch (error) {
      status.failedCycles++
      status.lastRunSuccess = false
      status.sources = blindSources(status.sources)
      status.blindInARow++
      this.blindReason = (error as Error).message
      log(`cycle ${status.cycles + 1} could not read the cluster, keeping the last readings: ${(error as Error).message}`)
    } finally {
      status.cycles++
      status.lastRunDurationSeconds = (Date.now() - started) / 1000
      status.lastRunApiRequests = this.requestCount() - requestsBefore
      status.apiRequestsTotal = this.requestCount()
      status.watchedLists = this.connections.reduce((sum, c) => sum + (c.watched?.size ?? 0), 0)
      this.rendered = undefined
    }
  }
}
