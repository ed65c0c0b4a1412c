/**
 * serve when the API server stops answering it, through a TCP relay (test/cluster/fault-proxy.ts startTcpRelay):
 * a held connection that goes silent for good is noticed (HTTP/2 PING) and replaced, and what its watches missed
 * is listed again; a cluster it cannot reach at all is said per source, on /readyz after --unready-after cycles,
 * while the last readings stay, marked by their age.
 *
 * That the black-hole case can fail: run it with the PING off (the transport as it was before it) and it does, with
 * no successful cycle on a new connection:
 *   KUBECTL_CHAINNODE_TEST_NO_PING=1 CHAINNODE_E2E_SCENARIOS=0 npx vitest run --project e2e test/e2e/serve-blind.e2e.test.ts -t 'black-holed'
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, useCluster } from '../cluster/kube.js'
import { startTcpRelay, type TcpRelay } from '../cluster/fault-proxy.js'
import { eventually, startServe, type ServeProcess } from '../helpers/serve.js'
import { seedNode, volumeFullEvent } from './seed-node.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const NS = 'serve-blind'
const NODE = 'blind-0'
const INTERVAL_S = 2

describe('serve when the API server stops answering it', () => {
  let relay: TcpRelay
  let serve: ServeProcess
  let uid: string
  const scrape = async () => (await fetch(`${serve.url}/metrics`)).text()
  const sample = (text: string, series: string) => {
    const value = new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]
    return value === undefined ? undefined : Number(value)
  }
  const findings = async () => ((await (await fetch(`${serve.url}/report`)).json()) as any).clusters[0].findings as any[]

  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    ;({ uid } = await seedNode(NS, NODE, {
      status: { phase: 'Running', chainID: 'blind-1', latestHeight: 100, validator: false, seedMode: false, appVersion: 'v25.2.0' },
      containers: [{ name: 'node', image: 'ghcr.io/cosmos/gaia:v25.2.0' }],
    }))
    relay = await startTcpRelay(inject('server'), inject('kubeconfigPath'), mkdtempSync(path.join(tmpdir(), 'serve-blind-')))
    serve = await startServe(['--all', '-n', NS, '--interval', `${INTERVAL_S}s`, '--request-timeout', '2s', '--no-probe', '--unready-after', '2'], {
      KUBECONFIG: relay.kubeconfigPath,
    })
  })
  afterAll(async () => {
    if (serve?.child.exitCode === null) await serve.stop()
    relay?.close()
  })

  it('a held connection black-holed for good: a cycle succeeds on a new connection within 3 intervals + 10 s, and sees what changed meanwhile', async () => {
    // Watches are open on the held connection once a second cycle has read from them.
    const ready = await eventually(async () => {
      const text = await scrape()
      return sample(text, 'chainnode_last_run_success') === 1 && sample(text, 'chainnode_watched_lists')! > 0 ? text : undefined
    }, 'a successful cycle with its lists watched')
    const lastSuccess = sample(ready, 'chainnode_last_run_success_timestamp_seconds')!
    const connections = relay.accepted
    relay.blackHoleOpen()
    const silentAt = Date.now()
    // Recorded while the held connection is silent: the watch on it cannot bring it, a new list must.
    await apply(volumeFullEvent(NS, NODE, uid))
    const recovered = await eventually(
      async () => {
        const text = await scrape()
        const at = sample(text, 'chainnode_last_run_success_timestamp_seconds')!
        // A success after the black hole, through a connection opened after it, that did send requests.
        return at > lastSuccess && relay.accepted > connections && sample(text, 'chainnode_run_api_requests')! > 0 ? text : undefined
      },
      'a successful cycle on a new connection',
      60_000,
    )
    const tookS = sample(recovered, 'chainnode_last_run_success_timestamp_seconds')! - Math.floor(silentAt / 1000)
    expect(tookS, serve.stderr()).toBeLessThanOrEqual(3 * INTERVAL_S + 10)
    await eventually(
      async () => ((await findings()).some((f) => f.ruleId === 'data-volume-full') ? true : undefined),
      'the Event recorded during the silence',
      20_000,
    )
    expect(serve.stderr()).toMatch(/did not answer a PING|timed out/)
  })

  it('a cluster it cannot reach: chainnode_source_up 0, errors counted, /readyz 503 with the reason after 2 cycles, the last readings kept with their age', async () => {
    await eventually(async () => (sample(await scrape(), 'chainnode_source_up{source="apiserver"}') === 1 ? true : undefined), 'the API server up')
    expect((await fetch(`${serve.url}/readyz`)).status).toBe(200)
    const before = await scrape()
    const readingsAt = sample(before, 'chainnode_readings_timestamp_seconds')!
    const finding = `chainnode_finding{namespace="${NS}",chainnode="${NODE}",rule="data-volume-full",severity="error"}`
    expect(sample(before, finding), before).toBe(1)
    relay.cut()
    const readyz = await eventually(
      async () => {
        const res = await fetch(`${serve.url}/readyz`)
        return res.status === 503 ? res.text() : undefined
      },
      '/readyz 503',
      30_000,
    )
    expect(readyz).toMatch(/^not ready: the last [2-9] cycles could not read the API server \(.+\); the readings served are from \d{4}-\d\d-\d\dT/)
    const during = await scrape()
    expect(sample(during, 'chainnode_source_up{source="apiserver"}')).toBe(0)
    expect(sample(during, 'chainnode_collection_errors{source="apiserver"}')).toBeGreaterThan(0)
    expect(sample(during, 'chainnode_blind_runs')).toBeGreaterThanOrEqual(2)
    // Kept, not turned into "healthy", and marked by the time they were read.
    expect(sample(during, finding)).toBe(1)
    expect(sample(during, 'chainnode_nodes')).toBe(1)
    expect(sample(during, 'chainnode_readings_timestamp_seconds')).toBe(readingsAt)
    await relay.restore()
    await eventually(async () => ((await fetch(`${serve.url}/readyz`)).status === 200 ? true : undefined), '/readyz 200 again', 30_000)
    const after = await scrape()
    expect(sample(after, 'chainnode_source_up{source="apiserver"}')).toBe(1)
    expect(sample(after, 'chainnode_blind_runs')).toBe(0)
    expect(sample(after, 'chainnode_readings_timestamp_seconds')).toBeGreaterThan(readingsAt)
  })
})
