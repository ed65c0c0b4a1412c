/**
 * The Cosmos SDK layer on a real simd chain (scenario sc-cosmos, seeded here, on demand), through the CLI, each
 * finding live and from a bundle collected at the same moment: the healthy validator stays clean; a validator that
 * stops signing is at risk (the slashing window), then jailed by the chain; a twin process of another validator
 * double-signs and the chain tombstones it; a proposal the validator did not vote on; a passed upgrade plan with
 * and without an image, then the real halt at its height. One chain, driven through time in this order.
 *
 *   flock /work/wt/e2e.lock npx vitest run --project e2e test/e2e/cosmos.e2e.test.ts   (CHAINNODE_E2E_SCENARIOS=0 is enough)
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { clusterKube, sleep, useCluster } from '../cluster/kube.js'
import { keepLeaderRenewing, seedScenarios } from '../cluster/scenarios/index.js'
import { COSMOS_CHAIN, COSMOS_NS, cosmosStateFile, type CosmosScenarioState } from '../cluster/scenarios/sc-cosmos.js'
import { govAuthority, proposalFile, simdPeer, simdQuery, simdTx, startSimd, stopSimd, twinOf } from '../cluster/simd.js'
import { cometStatus } from '../cluster/comet.js'
import { scenarioCtx } from './scenario-setup.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
let state: CosmosScenarioState
let stopRenewing = () => {}
const dir = () => inject('clusterDir')

/** doctor -n sc-cosmos as JSON, live; and the same from a bundle collected right after (the readings it keeps). */
async function doctorBoth(): Promise<{ live: any; offline: any; bundle: string }> {
  const live = await runCli(['doctor', '-n', COSMOS_NS, '--all', '-o', 'json', '--fail-on', 'never'], { env: env(), timeoutMs: 120_000 })
  expect(live.code, live.stderr).toBe(0)
  const bundle = path.join(mkdtempSync(path.join(tmpdir(), 'cosmos-bundle-')), 'b.tgz')
  const collected = await runCli(['collect', '-n', COSMOS_NS, '--all', '--out', bundle], { env: env(), timeoutMs: 120_000 })
  expect(collected.code, collected.stderr).toBe(0)
  const offline = await runCli(['doctor', '--bundle', bundle, '-o', 'json', '--fail-on', 'never'])
  return { live: JSON.parse(live.stdout).clusters[0], offline: JSON.parse(offline.stdout).clusters[0], bundle }
}
const findingsOn = (cluster: any, node: string, rule: string) => cluster.findings.filter((f: any) => f.node.name === node && f.ruleId === rule)
const cosmosOf = (cluster: any, node: string) => cluster.nodes.find((n: any) => n.name === node)?.chain?.cosmos

async function waitFor(what: string, test: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await test().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs / 1000}s`)
    await sleep(1000)
  }
}
const signingInfo = async (i: number) => {
  const key = JSON.stringify({ '@type': '/cosmos.crypto.ed25519.PubKey', key: (state.homes[i].validator.pub_key as { value: string }).value })
  return ((await simdQuery(dir(), state.running[0], ['slashing', 'signing-info', key])) as any).val_signing_info as {
    missed_blocks_counter?: string
    tombstoned?: boolean
  }
}
const isJailed = async (i: number) =>
  JSON.stringify(await simdQuery(dir(), state.running[0], ['staking', 'validator', state.homes[i].valoper])).includes('"jailed":true')

describe('the Cosmos SDK layer on a real simd chain', () => {
  beforeAll(async () => {
    useCluster(dir())
    await seedScenarios(scenarioCtx(), [COSMOS_NS])
    state = JSON.parse(readFileSync(cosmosStateFile(dir()), 'utf8')) as CosmosScenarioState
    // The shared operator's Lease renewed as its manager would (the fleet's global setup does it when it seeds).
    stopRenewing = keepLeaderRenewing(scenarioCtx())
  }, 300_000)
  afterAll(() => stopRenewing())

  it('the healthy validator stays clean; the chain read over abci_query: window, prefix, addresses converted', async () => {
    const { live, offline } = await doctorBoth()
    for (const cluster of [live, offline]) expect(cluster.findings.filter((f: any) => f.node.name === 'val-0')).toEqual([])
    const cosmos = cosmosOf(live, 'val-0')
    expect(cosmos).toMatchObject({
      prefix: 'cosmos',
      slashing: { signedBlocksWindow: 50, minSignedPerWindow: 0.5, downtimeJailSeconds: 60 },
      upgradePlan: null,
      unknown: {},
    })
    expect(cosmos.validator).toMatchObject({
      valoper: state.homes[0].valoper,
      account: state.homes[0].account,
      staking: { jailed: false, status: 'bonded' },
      signingInfo: { tombstoned: false },
    })
    expect(cosmos.validator.valcons).toMatch(/^cosmosvalcons1/)
    // The bundle was collected a moment later: the same chain, a block or two on.
    expect(cosmosOf(offline, 'val-0')).toMatchObject({
      prefix: 'cosmos',
      slashing: cosmos.slashing,
      validator: { valoper: cosmos.validator.valoper, valcons: cosmos.validator.valcons },
    })
  })

  it('a validator that stops signing: a warning while its counter climbs, then the chain jails it (an error)', async () => {
    // The twin of val-3 starts now, so its double sign is committed while val-2's window fills.
    state.running.push(await startSimd(dir(), twinOf(state.homes[3], state.twin), { peers: state.running.map(simdPeer) }))
    stopSimd(dir(), state.running[2])
    await waitFor('val-2 missed 3 blocks', async () => Number((await signingInfo(2)).missed_blocks_counter ?? 0) >= 3, 60_000)
    const risk = await doctorBoth()
    for (const cluster of [risk.live, risk.offline]) {
      const [finding] = findingsOn(cluster, 'val-2', 'validator-jail-risk')
      expect(finding.severity).toBe('warning')
      expect(finding.summary).toMatch(
        /^missed (\d+) of the last 50 blocks: jailed after (\d+) more missed blocks? \(~\S+ at the recent block time of \d+\.\ds\)$/,
      )
      const [, missed, left] = /^missed (\d+) .* after (\d+) more/.exec(finding.summary)!
      expect(Number(missed) + Number(left)).toBe(26)
    }

    await waitFor('val-2 jailed by the chain', () => isJailed(2), 180_000)
    const jailed = await doctorBoth()
    for (const cluster of [jailed.live, jailed.offline]) {
      const [finding] = findingsOn(cluster, 'val-2', 'validator-jailed')
      expect(finding.severity).toBe('error')
      expect(finding.summary).toMatch(new RegExp(`^validator ${state.homes[2].valoper} is jailed \\((unbonding|unbonded)\\)`))
      expect(finding.summary).toMatch(/jailed_until \d{4}-/)
      // The operator's .status.jailed (false, as seeded) is named as disagreeing with the chain.
      expect(finding.cause).toContain(".status.jailed says false: the operator's status disagrees with the chain")
      expect(findingsOn(cluster, 'val-2', 'validator-jail-risk')).toEqual([])
    }
    await clusterKube().patchStatus(
      { apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', metadata: { name: 'val-2', namespace: COSMOS_NS } },
      { status: { jailed: true } },
    )
    // val-2's own RPC is dead: the chain is read through the other nodes of the namespace.
    const agreed = await runCli(['doctor', '-n', COSMOS_NS, '--all', '-o', 'json', '--fail-on', 'never'], { env: env() })
    expect(findingsOn(JSON.parse(agreed.stdout).clusters[0], 'val-2', 'validator-jailed')[0].cause).toContain('.status.jailed agrees')
  }, 400_000)

  it('a real double sign: the chain tombstones val-3, reported as tombstoned, not as an ordinary jailing', async () => {
    await waitFor('val-3 tombstoned', async () => (await signingInfo(3)).tombstoned === true, 240_000)
    const { live, offline } = await doctorBoth()
    for (const cluster of [live, offline]) {
      const [finding] = findingsOn(cluster, 'val-3', 'validator-tombstoned')
      expect(finding.severity).toBe('error')
      expect(finding.summary).toBe(`validator ${state.homes[3].valoper} is tombstoned: the chain committed evidence of a double sign`)
      expect(findingsOn(cluster, 'val-3', 'validator-jailed')).toEqual([])
    }
  }, 300_000)

  it('a proposal in its voting period the validator has not voted on; the one that voted is clean', async () => {
    const text = proposalFile(state.homes[0], 'text', {
      messages: [],
      metadata: 'community-tax',
      deposit: '10stake',
      title: 'Raise the community tax',
      summary: 'A text proposal',
      expedited: false,
    })
    await simdTx(dir(), state.running[0], state.homes[0], ['gov', 'submit-proposal', text], COSMOS_CHAIN)
    await simdTx(dir(), state.running[0], state.homes[0], ['gov', 'vote', '1', 'yes'], COSMOS_CHAIN)
    const { live, offline } = await doctorBoth()
    for (const cluster of [live, offline]) {
      const [finding] = findingsOn(cluster, 'val-1', 'governance-vote')
      // A 600 s voting period: less than a day left, a warning.
      expect(finding.severity).toBe('warning')
      expect(finding.summary).toMatch(/^has not voted on proposal 1 "Raise the community tax"; voting on 1 ends in \S+$/)
      expect(finding.action).toContain(
        `simd tx gov vote 1 <yes|no|abstain|no_with_veto> --from <validator account> --chain-id ${COSMOS_CHAIN} (${state.homes[1].account})`,
      )
      expect(findingsOn(cluster, 'val-0', 'governance-vote')).toEqual([])
    }
  }, 200_000)

  it('the next upgrade: planned on the chain, an error on the node without an image, info on the one with; then the real halt', async () => {
    const [val0, val1] = state.running
    const planHeight = (await cometStatus(val0)).height + 45
    const authority = await govAuthority(dir(), val0)
    const upgrade = proposalFile(state.homes[0], 'upgrade', {
      messages: [{ '@type': '/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade', authority, plan: { name: 'v2', height: String(planHeight), info: '' } }],
      metadata: '',
      deposit: '20stake',
      title: 'Upgrade to v2',
      summary: 'A software upgrade',
      expedited: true,
    })
    await simdTx(dir(), val0, state.homes[0], ['gov', 'submit-proposal', upgrade], COSMOS_CHAIN)
    await Promise.all([
      simdTx(dir(), val0, state.homes[0], ['gov', 'vote', '2', 'yes'], COSMOS_CHAIN),
      simdTx(dir(), val1, state.homes[1], ['gov', 'vote', '2', 'yes'], COSMOS_CHAIN),
    ])
    await waitFor('the upgrade plan', async () => JSON.stringify(await simdQuery(dir(), val0, ['upgrade', 'plan'])).includes('"v2"'), 90_000)
    const kube = clusterKube()
    const ref = (name: string) => ({ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', metadata: { name, namespace: COSMOS_NS } })
    // The operator finds no image in the plan's info for val-1; val-0's spec names one.
    await kube.patchStatus(ref('val-1'), { status: { upgrades: [{ height: planHeight, image: '', status: 'image-missing', source: 'on-chain' }] } })
    await kube.patch(ref('val-0'), { spec: { app: { upgrades: [{ height: planHeight, image: 'ghcr.io/cosmos/simapp:v2' }] } } })
    const planned = await doctorBoth()
    for (const cluster of [planned.live, planned.offline]) {
      const [missing] = findingsOn(cluster, 'val-1', 'upgrade-plan')
      expect(missing.severity).toBe('error')
      expect(missing.summary).toMatch(
        new RegExp(
          `^upgrade "v2" at height ${planHeight}, in \\d+ blocks \\(~\\S+ at the recent block time of \\d+\\.\\ds\\): no image is set for it \\(operator: image-missing\\)$`,
        ),
      )
      const [ready] = findingsOn(cluster, 'val-0', 'upgrade-plan')
      expect(ready.severity).toBe('info')
      expect(ready.summary).toMatch(/: image ghcr\.io\/cosmos\/simapp:v2 is set for it$/)
    }

    await waitFor(
      `the halt at ${planHeight}`,
      async () => readFileSync(state.running[0].logFile, 'utf8').includes(`UPGRADE "v2" NEEDED at height: ${planHeight}`),
      240_000,
    )
    const halted = await doctorBoth()
    for (const cluster of [halted.live, halted.offline]) {
      expect(findingsOn(cluster, 'val-1', 'upgrade-needed')[0].summary).toBe(`upgrade "v2" needed at height ${planHeight}: no image is set for it`)
      expect(findingsOn(cluster, 'val-0', 'upgrade-needed')[0].summary).toBe(
        `upgrade "v2" needed at height ${planHeight}: image ghcr.io/cosmos/simapp:v2 is set for it`,
      )
      // The plan's own finding gives way to the halt it announced.
      expect(findingsOn(cluster, 'val-1', 'upgrade-plan')).toEqual([])
    }
  }, 500_000)

  it('status -o wide: the window, jailed, tombstoned and the next upgrade per validator', async () => {
    const wide = await runCli(['status', '-n', COSMOS_NS, '-o', 'wide'], { env: env() })
    expect(wide.code, wide.stderr).toBe(0)
    // Notes about the operator may stand above the table.
    const lines = wide.stdout.trim().split('\n')
    const [header, ...rows] = lines.slice(lines.findIndex((l) => l.startsWith('NAME ')))
    expect(header).toMatch(/\bWINDOW\b.*\bTOMBSTONED\b.*\bUPGRADE\b/)
    expect(rows.find((r) => r.startsWith('val-3 '))).toMatch(/\btrue\b/)
    expect(rows.find((r) => r.startsWith('val-0 '))).toMatch(/\/50\b/)
    expect(rows.find((r) => r.startsWith('val-0 '))).toMatch(/v2@\d+/)
  }, 120_000)
})
