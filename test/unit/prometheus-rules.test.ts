import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { RULE_IDS } from '../../src/engine/rule-ids.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const ALERTS = path.join(ROOT, 'deploy', 'prometheus', 'alerts.yaml')

interface AlertRule {
  alert: string
  expr: string
  annotations: Record<string, string>
  labels: Record<string, string>
}
const groups = (yaml.load(readFileSync(ALERTS, 'utf8')) as { groups: { name: string; rules: AlertRule[] }[] }).groups
const alerts = groups.flatMap((g) => g.rules)

const promtool = spawnSync('promtool', ['--version']).status === 0
const WITHOUT_PROMTOOL = promtool ? '' : ' (skipped: promtool is not installed; scripts/setup-prometheus.sh installs it, npm test runs it)'

describe('deploy/prometheus/alerts.yaml', () => {
  it('pages for what the issue asks: not syncing, missed blocks, jailed, double-sign risk, reconcile failing, exporter down or stale', () => {
    expect(alerts.map((a) => a.alert)).toEqual(
      expect.arrayContaining([
        'ChainNodeNotSyncing',
        'ChainNodeValidatorMissingBlocks',
        'ChainNodeValidatorJailed',
        'ChainNodeDoubleSignRisk',
        'ChainNodeOperatorReconcileFailing',
        'ChainnodeExporterDown',
        'ChainnodeExporterStale',
        // Issue 41: what the chain's Cosmos SDK modules say.
        'ChainNodeValidatorJailRisk',
        'ChainNodeValidatorTombstoned',
        'ChainNodeUpgradeWithoutImage',
        'ChainNodeGovernanceUnvoted',
      ]),
    )
  })

  it('gives every alert a severity, a runbook link and the command to run', () => {
    for (const alert of alerts) {
      expect(alert.labels.severity, alert.alert).toMatch(/^(critical|warning)$/)
      expect(alert.annotations.runbook_url, alert.alert).toMatch(/^https:\/\/github\.com\/voluzi\/kubectl-chainnode\/blob\/main\//)
      const command = alert.annotations.command
      if (alert.alert.startsWith('ChainNode')) expect(command, alert.alert).toBe('kubectl chainnode doctor {{ $labels.chainnode }} -n {{ $labels.namespace }}')
      else expect(command, alert.alert).toMatch(/^kubectl /)
    }
  })

  it('links only to rule pages that exist and only to rules that exist', () => {
    for (const alert of alerts) {
      const page = /docs\/rules\/([a-z-]+)\.md$/.exec(alert.annotations.runbook_url)?.[1]
      // A page per rule ({{ $labels.rule }}) or the README's section: only a named rule page is checked here.
      if (!page) continue
      expect(existsSync(path.join(ROOT, 'docs', 'rules', `${page}.md`)), `${alert.alert}: docs/rules/${page}.md`).toBe(true)
    }
    for (const alert of alerts)
      for (const [, rule] of alert.expr.matchAll(/rule="([a-z-]+)"/g)) expect(RULE_IDS as readonly string[], alert.alert).toContain(rule)
  })

  it.skipIf(!promtool)(`passes promtool check rules${WITHOUT_PROMTOOL}`, () => {
    const result = spawnSync('promtool', ['check', 'rules', ALERTS], { encoding: 'utf8' })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
  })

  it.skipIf(!promtool)(`passes its unit tests, test/prometheus/alerts.test.yaml${WITHOUT_PROMTOOL}`, () => {
    const result = spawnSync('promtool', ['test', 'rules', path.join(ROOT, 'test', 'prometheus', 'alerts.test.yaml')], { encoding: 'utf8' })
    expect(result.stdout + result.stderr).toContain('SUCCESS')
    expect(result.status, result.stdout + result.stderr).toBe(0)
  })
})
