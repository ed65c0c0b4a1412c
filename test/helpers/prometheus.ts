import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import yaml from 'js-yaml'
import { ROOT } from './cli.js'

/** Whether scripts/setup-prometheus.sh has put a Prometheus server on PATH. */
export const prometheusInstalled = () => spawnSync('prometheus', ['--version']).status === 0

/** A local port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

interface RuleGroup {
  name: string
  rules: { alert: string; for?: string }[]
}

/** deploy/prometheus/alerts.yaml with every `for:` shortened, so an alert fires within a test. */
export function alertsWithShortFor(forDuration: string): string {
  const doc = yaml.load(readFileSync(path.join(ROOT, 'deploy', 'prometheus', 'alerts.yaml'), 'utf8')) as { groups: RuleGroup[] }
  for (const group of doc.groups) for (const rule of group.rules) if (rule.for) rule.for = forDuration
  return yaml.dump(doc)
}

export interface PrometheusServer {
  api: string
  child: ChildProcess
  log: () => string
  stop: () => Promise<void>
  query: (promql: string) => Promise<{ metric: Record<string, string>; value: [number, string] }[]>
  alerts: () => Promise<{ labels: Record<string, string>; annotations: Record<string, string>; state: string }[]>
}

/**
 * A real Prometheus server (Debian's package), listening on 127.0.0.1 only, scraping `targets` as job
 * "chainnode" every second and evaluating `rules` every second. Its data lives in a temporary folder.
 */
export async function startPrometheus(targets: string[], rules: string): Promise<PrometheusServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'prometheus-'))
  writeFileSync(path.join(dir, 'alerts.yaml'), rules)
  const config = {
    global: { scrape_interval: '1s', evaluation_interval: '1s', scrape_timeout: '1s' },
    rule_files: [path.join(dir, 'alerts.yaml')],
    scrape_configs: [{ job_name: 'chainnode', static_configs: [{ targets }] }],
  }
  writeFileSync(path.join(dir, 'prometheus.yml'), yaml.dump(config))
  const port = await freePort()
  const child = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      // Only this machine can reach it: the tests' Prometheus is nobody else's.
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let log = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-20_000)))
  const api = `http://127.0.0.1:${port}`
  const get = async (pathAndQuery: string) => {
    const res = await fetch(`${api}${pathAndQuery}`)
    const body = (await res.json()) as { status: string; data: unknown; error?: string }
    if (body.status !== 'success') throw new Error(`${pathAndQuery}: ${body.error}`)
    return body.data
  }
  const until = Date.now() + 30_000
  for (;;) {
    try {
      if ((await fetch(`${api}/-/ready`)).ok) break
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > until) throw new Error(`prometheus did not start: ${log}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return {
    api,
    child,
    log: () => log,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.on('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
    query: async (promql) => ((await get(`/api/v1/query?query=${encodeURIComponent(promql)}`)) as { result: never[] }).result,
    alerts: async () => ((await get('/api/v1/alerts')) as { alerts: never[] }).alerts,
  }
}
