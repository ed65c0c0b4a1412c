/**
 * What the operator itself says about a node, through the real CLI against the test cluster: reconcile
 * errors found only in the manager log, a node held in a phase, a release without leader election.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { schemaErrors } from '../helpers/schema.js'
import { QUOTA_ERROR } from '../cluster/scenarios/sc-reconcile-failing.js'
import { seedScenarios } from '../cluster/scenarios/index.js'
import { refreshScenarios, scenarioCtx } from './scenario-setup.js'

const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
/* eslint-disable @typescript-eslint/no-explicit-any */
const doctorJson = async (args: string[]): Promise<{ code: number; findings: any[] }> => {
  const result = await runCli(['doctor', ...args, '--no-probe', '-o', 'json'], { env: env() })
  expect(result.stderr).toBe('')
  const report = JSON.parse(result.stdout)
  expect(schemaErrors('doctor-report.schema.json', report)).toEqual([])
  return { code: result.code, findings: report.clusters[0].findings }
}

describe("the operator's own word on a node", () => {
  beforeAll(async () => {
    // Seeded afresh: a refusal counts as an error only while it repeats (within 20 minutes), and a full suite reaches
    // this file later than that after the global seeding.
    await seedScenarios(scenarioCtx(), ['sc-reconcile-failing'])
    await refreshScenarios()
  })

  it("a node whose only evidence is the operator's Reconciler error lines is an error, the error its summary", async () => {
    const text = await runCli(['doctor', 'quota-0', '-n', 'sc-reconcile-failing', '--no-probe'], { env: env() })
    expect(text.code).toBe(1)
    // Text wraps at 120 columns: compare with the wrapping undone.
    const flat = text.stdout.replace(/\s+/g, ' ')
    expect(flat).toMatch(/ERROR\s+reconcile-failing\s+ChainNode\/quota-0: reconcile of ChainNode\/quota-0 fails \(x\d+ over \d+m\): failed to create init pod/)
    expect(flat).toMatch(/Action:\s+Raise ResourceQuota compute-resources in sc-reconcile-failing/)
    const { findings } = await doctorJson(['quota-0', '-n', 'sc-reconcile-failing'])
    const failing = findings.find((f) => f.ruleId === 'reconcile-failing')
    expect(failing).toMatchObject({ severity: 'error', data: { cause: 'quota', error: QUOTA_ERROR } })
    expect(failing.evidence.some((e: any) => e.kind === 'log' && e.source.includes('Reconciler error on ChainNode/quota-0'))).toBe(true)
    // Held there since the operator logged the phase change, with the same error as evidence.
    const stuck = findings.find((f) => f.ruleId === 'phase-stuck')
    expect(stuck).toMatchObject({ severity: 'error', data: { phase: 'InitializingData', exact: true, explained: true } })
  })

  it('a node held in InitializingData with nothing logged: how long, that nothing explains it, what to read next', async () => {
    const { code, findings } = await doctorJson(['init-0', '-n', 'sc-phase-stuck'])
    expect(code).toBe(1)
    expect(findings.map((f) => f.ruleId)).toEqual(['phase-stuck'])
    const [stuck] = findings
    // Seeded 2h52m before the suite's start: the age grows with the suite's own run time (3h and over print in hours).
    expect(stuck.summary).toMatch(/^stuck in phase InitializingData for about (1[67]\dm|[3-5]h) \(more than 130m\)$/)
    expect(stuck.evidence.find((e: any) => e.kind === 'missing').text).toMatch(/^no operator error and no Warning Event since /)
    expect(stuck.action).toMatch(/kubectl logs -n sc-phase-stuck init-0-init-data --all-containers/)
  })

  it('--phase-timeout changes the threshold; a bad value is a usage error', async () => {
    const patient = await runCli(['doctor', 'init-0', '-n', 'sc-phase-stuck', '--no-probe', '--phase-timeout', 'InitializingData=4h'], { env: env() })
    expect(patient.code).toBe(0)
    expect(patient.stdout).toMatch(/No problems found on 1 node/)
    const bad = await runCli(['doctor', 'init-0', '-n', 'sc-phase-stuck', '--phase-timeout', 'Running=1h'], { env: env() })
    expect(bad.code).toBe(2)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
    expect(bad.stderr).toMatch(/--phase-timeout "Running=1h" is not PHASE=DURATION/)
  })

  it('a single-replica release without leader election, and no Lease, stays clean', async () => {
    const result = await runCli(['doctor', 'solo-0', '-n', 'sc-healthy-no-leader-election', '--no-probe'], { env: env() })
    expect(result.stdout).toMatch(/No problems found on 1 node/)
    expect(result.code).toBe(0)
  })

  it("status shows the operator's latest error after the table (on stderr: stdout holds only the table), and in JSON", async () => {
    const text = await runCli(['status', 'quota-0', '-n', 'sc-reconcile-failing'], { env: env() })
    expect(text.code).toBe(0)
    expect(text.stdout.trimEnd().split('\n')).toHaveLength(2)
    expect(text.stdout).toMatch(/^NAME\s+STATUS/)
    const [, below] = text.stderr.split("Reconcile failing (the operator's latest error):\n")
    // The paragraph under the table; the CONFIG footnote (no Pod yet) follows it.
    // Wrapped at the width of prose (piped: 120), its lines joined again.
    expect(
      below
        .trim()
        .split('\n\n')[0]
        .replace(/\n {4}/g, ' '),
    ).toMatch(/^quota-0: failed to create init pod: .*exceeded quota: compute-resources.* \(x\d+ over \d+m\), last \S+ ago$/)
    const json = await runCli(['status', 'quota-0', '-n', 'sc-reconcile-failing', '-o', 'json'], { env: env() })
    const list = JSON.parse(json.stdout)
    expect(schemaErrors('node-status.schema.json', list)).toEqual([])
    expect(list.nodes[0].operatorError).toMatchObject({ error: QUOTA_ERROR })
    const healthy = await runCli(['status', 'solo-0', '-n', 'sc-healthy-no-leader-election'], { env: env() })
    expect(healthy.stderr).not.toMatch(/Reconcile failing/)
  })
})
