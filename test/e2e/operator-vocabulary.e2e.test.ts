/**
 * What only the operator's own words name, through the real CLI against the test cluster
 * (scenario sc-operator-vocabulary): a jailed validator, a data volume at its maximum size, and a
 * ChainNodeSet with no ChainNode yet whose genesis cannot be downloaded.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { schemaErrors } from '../helpers/schema.js'
import { seedScenarios } from '../cluster/scenarios/index.js'
import { refreshScenarios, scenarioCtx } from './scenario-setup.js'

const NS = 'sc-operator-vocabulary'
const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
/* eslint-disable @typescript-eslint/no-explicit-any */
const doctorJson = async (args: string[]): Promise<{ code: number; findings: any[]; nodes: any[] }> => {
  const result = await runCli(['doctor', ...args, '-n', NS, '--no-probe', '-o', 'json'], { env: env() })
  expect(result.stderr).toBe('')
  const report = JSON.parse(result.stdout)
  expect(schemaErrors('doctor-report.schema.json', report)).toEqual([])
  return { code: result.code, findings: report.clusters[0].findings, nodes: report.clusters[0].nodes }
}

describe("the operator's vocabulary, live", () => {
  beforeAll(async () => {
    // Seeded afresh: the operator's failures here count only while recent (a refusal repeats within 20 minutes, the
    // snapshot-list Event is over after 20), and the suite reaches this file long after the global seeding.
    await seedScenarios(scenarioCtx(), [NS])
    await refreshScenarios()
  }, 300_000)

  it('a jailed validator: the cause, what to check first and the unjail command with its chain', async () => {
    const { code, findings } = await doctorJson(['val-jailed'])
    expect(code).toBe(1)
    const jailed = findings.find((f) => f.ruleId === 'validator-jailed')
    expect(jailed).toMatchObject({ severity: 'error', data: { state: 'jailed', bondStatus: 'unbonding', readFrom: 'status' } })
    expect(jailed.action).toMatch(/^First fix why it stopped signing/)
    expect(jailed.action).toMatch(/gaiad tx slashing unjail --from <validator account> --chain-id cosmoshub-4/)
    expect(jailed.evidence.some((e: any) => e.source.startsWith('Event Warning ValidatorJailed'))).toBe(true)
  })

  it('a data volume at its maximum size: data-volume-full with the patch to raise autoResizeMaxSize', async () => {
    const { code, findings } = await doctorJson(['full-disk'])
    expect(code).toBe(1)
    const full = findings.find((f) => f.ruleId === 'data-volume-full')
    expect(full).toMatchObject({ severity: 'error', data: { entry: 'event/PvcMaxSizeReached' } })
    expect(full.data.entries).toEqual(expect.arrayContaining(['event/PvcMaxSizeReached', 'status/dataUsage']))
    expect(full.action).toMatch(/kubectl patch chainnode full-disk -n sc-operator-vocabulary --type merge/)
  })

  it('doctor --set on a set with no ChainNode yet reports why: its genesis cannot be downloaded', async () => {
    const text = await runCli(['doctor', '--set', 'no-genesis', '-n', NS, '--no-probe'], { env: env() })
    expect(text.stderr).toBe('')
    expect(text.code).toBe(1)
    expect(text.stdout).not.toMatch(/No problems found/)
    const { findings, nodes } = await doctorJson(['--set', 'no-genesis'])
    expect(nodes.map((n: any) => n.name)).toEqual(['no-genesis'])
    const genesis = findings.find((f) => f.ruleId === 'genesis-unavailable')
    expect(genesis).toMatchObject({ severity: 'error', subject: { kind: 'ChainNodeSet', name: 'no-genesis' } })
    // The operator's own words are the summary: the newest of the Event ("Failed to download genesis from URL: …")
    // and the bare error the set's reconciler returns (Get "<url>": …), whichever the clock last touched.
    expect(genesis.summary).toMatch(/^the operator reports: .*genesis\.example\.invalid.*no such host/)
    expect(genesis.cause).toMatch(/cannot obtain its genesis/)
    expect(genesis.evidence.some((e: any) => e.source === 'Reconciler error on ChainNodeSet/no-genesis')).toBe(true)
  })

  it('a LimitRange refusing the init Pod: an error within seconds, with the bound against the limit and the field to change', async () => {
    const { code, findings } = await doctorJson(['init-refused'])
    expect(code).toBe(1)
    const refused = findings.find((f) => f.ruleId === 'reconcile-failing')
    expect(refused).toMatchObject({ severity: 'error', data: { cause: 'limit-range', causeFacts: { allowed: '1Gi', asked: '2Gi', resource: 'memory' } } })
    expect(refused.cause).toMatch(/a LimitRange allows at most 1Gi memory per Container, and Pod init-refused-init-data asks 2Gi \(its limit\)/)
    expect(refused.action).toMatch(
      /^Set the memory limit of the additional init commands of init-refused at or below 1Gi .*\.spec\.persistence\.additionalInitCommands\[\]\.resources.*kubectl describe limitrange -n sc-operator-vocabulary/,
    )
  })

  it('a validator without its consensus key Secret: an error saying it cannot sign until the Secret exists, not the generic text', async () => {
    const { code, findings } = await doctorJson(['val-nokey'])
    expect(code).toBe(1)
    expect(findings.filter((f) => f.ruleId === 'reconcile-failing')).toEqual([])
    const key = findings.find((f) => f.ruleId === 'signing-key-blocked')
    expect(key).toMatchObject({ severity: 'error', data: { entry: 'reconcile-error/consensus-key-secret-missing' } })
    expect(key.cause).toMatch(/cannot sign blocks.*until it does: Secret val-nokey-consensus-key does not exist/)
    expect(key.action).toMatch(/^Create Secret val-nokey-consensus-key in sc-operator-vocabulary/)
  })

  it('state sync: the snapshot list the operator cannot read is a finding with its cause, not "No problems found"', async () => {
    const text = await runCli(['doctor', 'val-statesync', '-n', NS, '--no-probe'], { env: env() })
    expect(text.stdout).not.toMatch(/No problems found/)
    const { findings } = await doctorJson(['val-statesync'])
    const sync = findings.find((f) => f.ruleId === 'state-sync-blocked')
    expect(sync).toMatchObject({ severity: 'warning', data: { entry: 'event/NoTrustHeight-list' } })
    expect(sync.cause).toMatch(/snapshot list .*: 10\.96\.41\.12:8000 answers connection refused; the node's own height was not measured/)
  })

  it('doctor --all -n NS finds each trouble of the namespace by its own rule', async () => {
    const { findings } = await doctorJson(['--all'])
    expect([...new Set(findings.map((f) => f.ruleId))].sort()).toEqual(
      ['data-volume-full', 'genesis-unavailable', 'reconcile-failing', 'signing-key-blocked', 'state-sync-blocked', 'validator-jailed'].sort(),
    )
  })

  it('doctor --all -n NS lists the set with no ChainNode among its subjects, with the same finding', async () => {
    const { code, findings, nodes } = await doctorJson(['--all'])
    expect(code).toBe(1)
    expect(nodes.map((n: any) => n.name)).toEqual(expect.arrayContaining(['val-jailed', 'full-disk', 'no-genesis']))
    expect(findings.find((f) => f.ruleId === 'genesis-unavailable')).toMatchObject({ subject: { kind: 'ChainNodeSet', name: 'no-genesis' } })
  })
})
