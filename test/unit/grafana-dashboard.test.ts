/**
 * deploy/grafana/chainnode-fleet.json: checked against Grafana's own dashboard model (the types of the
 * @grafana/schema package, through the TypeScript compiler: a field it does not define, or a value of the wrong
 * type, is an error), laid out on Grafana's 24-column grid, and querying only series serve exports. That every
 * panel's query returns data from a real Prometheus is test/e2e/serve-prometheus.e2e.test.ts's.
 */
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { serveMetrics } from '../../src/render/serve-metrics.js'
import { ROOT } from '../helpers/cli.js'
import { DASHBOARD_PATH, panelQueries, queryPanels, readDashboard } from '../helpers/grafana.js'
import { readFileSync } from 'node:fs'

/* eslint-disable @typescript-eslint/no-explicit-any */
const dashboard = readDashboard()

/** Type errors of `const dashboard: Dashboard = <the JSON>`, compiled in memory: the literal is checked field by field. */
function schemaErrors(json: string): string[] {
  const file = path.join(ROOT, 'test', 'unit', 'dashboard-schema-check.ts')
  // JSON holds an enum's value ("absolute"), never the enum: each string enum of the model is read as its values.
  const source = [
    `import type { Dashboard } from '@grafana/schema'`,
    'type AsJson<T> = T extends string ? `${T}` : T extends readonly (infer U)[] ? AsJson<U>[] : T extends object ? { [K in keyof T]: AsJson<T[K]> } : T',
    `export const dashboard: AsJson<Dashboard> = ${json}`,
    '',
  ].join('\n')
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.readFile = (name) => (name === file ? source : readFile(name))
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists(name)
  )(host.fileExists.bind(host))
  host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest))
  const program = ts.createProgram([file], options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined
    return `${where ? `line ${where.line}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
}

describe('the Grafana dashboard (deploy/grafana/chainnode-fleet.json)', () => {
  it("matches Grafana's dashboard model (@grafana/schema)", () => {
    expect(schemaErrors(readFileSync(DASHBOARD_PATH, 'utf8'))).toEqual([])
  })

  it('the check catches a field the model does not define and a value of the wrong type', () => {
    expect(schemaErrors(JSON.stringify({ ...dashboard, colour: 'dark' })).join('\n')).toMatch(/'"colour"' does not exist/)
    expect(schemaErrors(JSON.stringify({ ...dashboard, refresh: 60 })).join('\n')).toMatch(/'number' is not assignable to type 'string'/)
    const panels = dashboard.panels.map((p: any) => (p.type === 'stat' ? { ...p, gridPos: { ...p.gridPos, w: '4' } } : p))
    expect(schemaErrors(JSON.stringify({ ...dashboard, panels })).join('\n')).toMatch(/'string' is not assignable to type 'number'/)
  })

  it('lays its panels on the 24-column grid without overlap, each with a unique id', () => {
    const panels = dashboard.panels as any[]
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length)
    const cells = new Set<string>()
    for (const { title, gridPos: g } of panels) {
      expect(g.x + g.w, title).toBeLessThanOrEqual(24)
      for (let x = g.x; x < g.x + g.w; x++)
        for (let y = g.y; y < g.y + g.h; y++) {
          expect(cells.has(`${x},${y}`), `${title} overlaps at ${x},${y}`).toBe(false)
          cells.add(`${x},${y}`)
        }
    }
  })

  it("queries through the dashboard's Prometheus variable, and only series serve exports (or Prometheus's up)", () => {
    const families = new Set(
      serveMetrics({
        version: '0',
        nodeVersion: 'v0',
        nodes: [],
        findings: [],
        cycles: 0,
        failedCycles: 0,
        lastRunSuccess: true,
        watchedLists: 0,
        sources: [],
        blindInARow: 0,
        apiRequestsTotal: 0,
      }).map((f) => f.name),
    )
    for (const panel of queryPanels(dashboard)) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' })
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0)
    }
    for (const { panel, expr } of panelQueries(dashboard)) {
      const names = [...expr.matchAll(/\b(chainnode_[a-z_]+|up)\b(?=\s*[{[)\s]|$)/g)].map((m) => m[1])
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0)
      for (const name of names) expect(name === 'up' || families.has(name), `${panel}: ${name}`).toBe(true)
    }
  })

  it('shows what a fleet overview needs: findings by severity, nodes not measured, heights and block age, signing and jail risk, exporter health', () => {
    const exprs = panelQueries(dashboard)
      .map((q) => q.expr)
      .join('\n')
    for (const wanted of [
      'severity="error"',
      'severity="warning"',
      'chainnode_probe_success',
      'chainnode_height',
      'chainnode_block_age_seconds',
      'chainnode_validator_missed_blocks',
      'chainnode_validator_jailed',
      'chainnode_source_up',
      'chainnode_readings_timestamp_seconds',
    ])
      expect(exprs).toContain(wanted)
  })
})
