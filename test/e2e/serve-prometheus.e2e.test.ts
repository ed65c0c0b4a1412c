/**
 * `chainnode serve` scraped by a real Prometheus (Debian's package, scripts/setup-prometheus.sh) against the test
 * cluster: the series of a healthy chain (sc-healthy-chain) and a broken one (sc-chain-no-peers: stalled, no peers)
 * read back through Prometheus's HTTP API, and an alert of deploy/prometheus/alerts.yaml firing (a copy of the
 * rules with a short `for:`). Then the exporter's own behaviour: /readyz, /report, an API that goes away.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { PROMETHEUS_CONTENT_TYPE } from '../../src/render/prometheus.js'
import { panelQueries, readDashboard } from '../helpers/grafana.js'
import { alertsWithShortFor, prometheusInstalled, startPrometheus, type PrometheusServer } from '../helpers/prometheus.js'
import { eventually, startServe, type ServeProcess } from '../helpers/serve.js'
import { refreshScenarios } from './scenario-setup.js'

const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
const HEALTHY = '{namespace="sc-healthy-chain",chainnode="node-0"}'
const BROKEN = '{namespace="sc-chain-no-peers",chainnode="lonely-0"}'
const SCOPE = ['-A', '--interval', '3s', '--gate-timeout', '2s', '--probe-window', '2s']

describe.skipIf(!prometheusInstalled())('serve scraped by a real Prometheus (skipped without prometheus: run scripts/setup-prometheus.sh)', () => {
  let serve: ServeProcess
  let prometheus: PrometheusServer
  const value = async (promql: string) => {
    const [sample] = await prometheus.query(promql)
    return sample ? Number(sample.value[1]) : undefined
  }

  beforeAll(async () => {
    await refreshScenarios()
    serve = await startServe(SCOPE, env())
    prometheus = await startPrometheus([new URL(serve.url).host], alertsWithShortFor('2s'))
  })
  afterAll(async () => {
    await prometheus?.stop()
    if (serve?.child.exitCode === null) serve.child.kill('SIGKILL')
  })

  it('answers /metrics in the text format with its content type, /healthz at once and /readyz after the first cycle', async () => {
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200)
    await eventually(async () => ((await fetch(`${serve.url}/readyz`)).status === 200 ? true : undefined), '/readyz 200', 120_000)
    const metrics = await fetch(`${serve.url}/metrics`)
    expect(metrics.headers.get('content-type')).toBe(PROMETHEUS_CONTENT_TYPE)
    expect(await metrics.text()).toMatch(/^# HELP chainnode_finding /)
    const report = (await (await fetch(`${serve.url}/report`)).json()) as { kind: string; clusters: { nodes: { name: string }[] }[] }
    expect(report.kind).toBe('DoctorReport')
    expect(report.clusters[0].nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['node-0', 'lonely-0']))
  })

  it('Prometheus holds the healthy chain: its height moves, the probe answers, no finding says it does not sync', async () => {
    await eventually(async () => ((await value(`up{job="chainnode"}`)) === 1 ? true : undefined), 'a successful scrape')
    const first = await eventually(() => value(`chainnode_height${HEALTHY}`), 'chainnode_height of node-0')
    expect(first).toBeGreaterThan(0)
    expect(await value(`chainnode_probe_success${HEALTHY}`)).toBe(1)
    expect(await value(`chainnode_catching_up${HEALTHY}`)).toBe(0)
    expect(await value(`chainnode_block_age_seconds${HEALTHY}`)).toBeLessThan(20)
    // A later cycle reads a higher block: the series is live, not a copy of the first reading.
    await eventually(async () => ((await value(`chainnode_height${HEALTHY}`))! > first ? true : undefined), 'a higher height for node-0')
    expect(await prometheus.query(`chainnode_finding{namespace="sc-healthy-chain",rule="not-syncing"}`)).toEqual([])
  })

  it('Prometheus holds the broken chain: a not-syncing finding, no peers, and the exporter health series', async () => {
    await eventually(
      () => value(`chainnode_finding{namespace="sc-chain-no-peers",chainnode="lonely-0",rule="not-syncing",severity="error"}`),
      'the not-syncing finding',
    )
    expect(await value(`chainnode_peers${BROKEN}`)).toBe(0)
    expect(await value(`chainnode_validator_jailed{namespace="sc-signer-pubkey"}`)).toBe(0)
    expect(await value('chainnode_runs_total')).toBeGreaterThan(0)
    expect(await value('chainnode_api_requests_total')).toBeGreaterThan(0)
    expect(await value('chainnode_run_duration_seconds')).toBeGreaterThan(0)
    expect(await value('chainnode_last_run_success_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 600)
    expect((await prometheus.query('chainnode_build_info'))[0].metric).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) })
  })

  it('an alert of deploy/prometheus/alerts.yaml fires for the broken node, with its runbook and command', async () => {
    const alert = await eventually(
      async () =>
        (await prometheus.alerts()).find((a) => a.labels.alertname === 'ChainNodeNotSyncing' && a.labels.chainnode === 'lonely-0' && a.state === 'firing'),
      'ChainNodeNotSyncing firing',
    )
    expect(alert.annotations).toMatchObject({
      command: 'kubectl chainnode doctor lonely-0 -n sc-chain-no-peers',
      runbook_url: 'https://github.com/voluzi/kubectl-chainnode/blob/main/docs/rules/not-syncing.md',
    })
    expect((await prometheus.alerts()).filter((a) => a.labels.namespace === 'sc-healthy-chain' && a.labels.alertname === 'ChainNodeNotSyncing')).toEqual([])
  })

  it('every panel of the Grafana dashboard (deploy/grafana/) gets series from this Prometheus, and its namespace variable values', async () => {
    const dashboard = readDashboard()
    const queries = panelQueries(dashboard)
    expect(queries.length).toBeGreaterThan(20)
    // What Grafana sends for each panel, at its widest: a query that errors or returns no series is a panel that shows nothing.
    const emptyPanels = async () => {
      const empty: string[] = []
      for (const { panel, refId, expr } of queries) {
        try {
          if ((await prometheus.query(expr)).length === 0) empty.push(`${panel} (${refId}): no series for ${expr}`)
        } catch (error) {
          empty.push(`${panel} (${refId}): ${(error as Error).message}`)
        }
      }
      return empty
    }
    // The series come with the cycles: a validator's signing window, a second sample for increase().
    let empty = await emptyPanels()
    for (const until = Date.now() + 90_000; empty.length > 0 && Date.now() < until; empty = await emptyPanels())
      await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(empty).toEqual([])
    const variable = dashboard.templating.list.find((v: { name: string }) => v.name === 'namespace')
    const match = /^label_values\((.+), namespace\)$/.exec(variable.query.query)![1]
    const values = (await (await fetch(`${prometheus.api}/api/v1/label/namespace/values?match[]=${encodeURIComponent(match)}`)).json()) as { data: string[] }
    expect(values.data).toEqual(expect.arrayContaining(['sc-healthy-chain', 'sc-chain-no-peers', 'sc-validators']))
  })

  it('ends within a second of SIGTERM, exit code 0', async () => {
    const { code, ms } = await serve.stop()
    expect(code).toBe(0)
    expect(ms).toBeLessThan(1000)
  })
})

describe('serve when the API server goes away', () => {
  let proxy: Server
  const sockets = new Set<Socket>()
  let serve: ServeProcess

  beforeAll(async () => {
    // A TCP relay in front of the real API server, so this test can cut the cluster off from serve alone.
    const target = new URL(inject('server'))
    proxy = createServer((socket) => {
      const upstream = connect(Number(target.port), target.hostname)
      sockets.add(socket).add(upstream)
      socket.pipe(upstream).pipe(socket)
      const drop = () => (socket.destroy(), upstream.destroy())
      socket.on('error', drop).on('close', drop)
      upstream.on('error', drop).on('close', drop)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const kubeconfig = path.join(mkdtempSync(path.join(tmpdir(), 'serve-proxy-')), 'kubeconfig')
    const port = (proxy.address() as { port: number }).port
    writeFileSync(kubeconfig, readFileSync(inject('kubeconfigPath'), 'utf8').replaceAll(inject('server'), `https://127.0.0.1:${port}`))
    await refreshScenarios()
    serve = await startServe(['node-0', '-n', 'sc-healthy-chain', '--interval', '2s', '--request-timeout', '2s'], { KUBECONFIG: kubeconfig })
  })
  afterAll(() => {
    if (serve?.child.exitCode === null) serve.child.kill('SIGKILL')
    proxy?.close()
  })

  const scrape = async () => (await fetch(`${serve.url}/metrics`)).text()
  const sample = (text: string, series: string) => new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]

  it('keeps the last readings and says the cycle failed, then recovers', async () => {
    const proxyPort = (proxy.address() as { port: number }).port
    await eventually(async () => sample(await scrape(), `chainnode_height${HEALTHY}`), 'a first reading')
    expect(sample(await scrape(), 'chainnode_last_run_success')).toBe('1')
    proxy.close()
    for (const socket of sockets) socket.destroy()
    await eventually(async () => (sample(await scrape(), 'chainnode_last_run_success') === '0' ? true : undefined), 'a failed cycle', 30_000)
    const during = await scrape()
    const failures = Number(sample(during, 'chainnode_run_failures_total'))
    expect(failures).toBeGreaterThan(0)
    // Another failed cycle later, the readings are still those of the last cycle that read the cluster.
    const later = await eventually(
      async () => {
        const text = await scrape()
        return Number(sample(text, 'chainnode_run_failures_total')) > failures ? text : undefined
      },
      'a second failed cycle',
      30_000,
    )
    expect(sample(later, `chainnode_height${HEALTHY}`)).toBe(sample(during, `chainnode_height${HEALTHY}`))
    expect(sample(later, `chainnode_height${HEALTHY}`)).toBeDefined()
    expect(sample(later, 'chainnode_last_run_success_timestamp_seconds')).toBe(sample(during, 'chainnode_last_run_success_timestamp_seconds'))
    expect(serve.stderr()).toMatch(/could not read the cluster, keeping the last readings/)
    await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve))
    await eventually(async () => (sample(await scrape(), 'chainnode_last_run_success') === '1' ? true : undefined), 'a cycle that reads again', 30_000)
  })
})
