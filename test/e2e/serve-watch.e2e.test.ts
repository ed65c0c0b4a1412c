/**
 * serve's cycles after the first read their lists from watches on the real API server: fewer requests than the
 * first cycle, and what changes in the cluster (an Event recorded, then deleted) still reaches the next report.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, deleteObject, useCluster } from '../cluster/kube.js'
import { Session } from '../../src/commands/session.js'
import { WatchedLists } from '../../src/cluster/watched-lists.js'
import { readerFor } from '../../src/cluster/lists.js'
import { NAMESPACE_TARGETS } from '../../src/cluster/targets.js'
import { ROOT } from '../helpers/cli.js'
import { eventually, startServe, type ServeProcess } from '../helpers/serve.js'
import { seedNode, volumeFullEvent } from './seed-node.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const NS = 'serve-watch'
const NODE = 'watch-0'

describe('serve keeps its lists current by watches', () => {
  let serve: ServeProcess
  let uid: string
  const metric = async (name: string) => {
    const text = await (await fetch(`${serve.url}/metrics`)).text()
    const value = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]
    return value === undefined ? undefined : Number(value)
  }
  const afterCycle = async (n: number) => eventually(async () => ((await metric('chainnode_runs_total'))! >= n ? true : undefined), `cycle ${n}`)
  const findings = async () => ((await (await fetch(`${serve.url}/report`)).json()) as any).clusters[0].findings as any[]

  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    ;({ uid } = await seedNode(NS, NODE, {
      status: { phase: 'Running', chainID: 'watch-1', latestHeight: 100, validator: false, seedMode: false, appVersion: 'v25.2.0' },
      containers: [{ name: 'node', image: 'ghcr.io/cosmos/gaia:v25.2.0' }],
    }))
    serve = await startServe(['--all', '-n', NS, '--interval', '4s', '--no-probe'], { KUBECONFIG: inject('kubeconfigPath') })
  })
  afterAll(async () => {
    if (serve?.child.exitCode === null) await serve.stop()
  })

  it('lists once, then answers from watches: a later cycle sends fewer requests than the first', async () => {
    // Read while the first cycle's figure stands: cycles are 4 s apart, the poll 1 s.
    await afterCycle(1)
    expect(await metric('chainnode_runs_total')).toBe(1)
    const first = (await metric('chainnode_run_api_requests'))!
    await afterCycle(3)
    expect(await metric('chainnode_watched_lists')).toBeGreaterThan(0)
    expect(await metric('chainnode_run_api_requests')).toBeLessThan(first)
  })

  it('an Event recorded after the first cycle reaches the report, and leaves it once deleted', async () => {
    const event = volumeFullEvent(NS, NODE, uid)
    const created = await apply(event)
    await eventually(async () => ((await findings()).some((f) => f.ruleId === 'data-volume-full') ? true : undefined), 'the finding of the new Event')
    await deleteObject(created)
    await eventually(async () => ((await findings()).some((f) => f.ruleId === 'data-volume-full') ? undefined : true), 'the finding to go with the Event')
  })

  it("a list of metadata alone is listed as asked, never answered from a watch's whole objects", async () => {
    const session = new Session('test', ROOT)
    const { client } = await session.reader.connect({ kubeconfig: inject('kubeconfigPath'), 'request-timeout': 30_000 })
    const watched = new WatchedLists(client)
    const configMaps = { ...NAMESPACE_TARGETS.find((t) => t.kind === 'ConfigMap')!, metadataOnly: true }
    await apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'watch-0-config', namespace: NS },
      data: { 'app.toml': 'minimum-gas-prices = "0stake"' },
    })
    try {
      const read = readerFor(client, [], async (items) => items, watched)
      for (let cycle = 0; cycle < 2; cycle++) {
        const items = await read(configMaps, NS)
        expect(items.find((item) => item.metadata.name === 'watch-0-config')).toMatchObject({ kind: 'ConfigMap' })
        expect(items.every((item) => !('data' in item))).toBe(true)
      }
      expect(watched.size).toBe(0)
      // The same list of whole objects is kept by a watch, as serve's lists are.
      const whole = await read({ ...configMaps, metadataOnly: undefined }, NS)
      expect(whole.find((item) => item.metadata.name === 'watch-0-config')).toHaveProperty('data')
      expect(watched.size).toBe(1)
    } finally {
      watched.close()
      session.close()
    }
  })

  it('past its cap a list is listed as before; a watch the server ends is reopened and still sees changes', async () => {
    const session = new Session('test', ROOT)
    const { client } = await session.reader.connect({ kubeconfig: inject('kubeconfigPath'), 'request-timeout': 30_000 })
    // Watches the server ends after a second, and at most one of them.
    const watched = new WatchedLists(client, 1, 1)
    const pods = `/api/v1/namespaces/${NS}/pods?resourceVersion=0`
    const events = `/api/v1/namespaces/${NS}/events?resourceVersion=0`
    try {
      await watched.list(pods)
      await watched.list(events)
      expect(watched.size).toBe(1)
      const opened = client.requestCount
      await eventually(async () => (client.requestCount >= opened + 2 ? true : undefined), 'the watch reopened twice', 15_000)
      // The reopened watch keeps sending requests meanwhile, so the lists sent are counted apart from them.
      const listed: string[] = []
      const getJSON = client.getJSON.bind(client)
      client.getJSON = ((path: string, ...rest: unknown[]) => {
        listed.push(path)
        return (getJSON as (...args: unknown[]) => unknown)(path, ...rest)
      }) as typeof client.getJSON
      await watched.list(pods)
      expect(listed).toEqual([])
      await watched.list(events)
      expect(listed).toEqual([events])
      await seedNode(NS, 'watch-1', { containers: [{ name: 'node', image: 'ghcr.io/cosmos/gaia:v25.2.0' }] })
      await eventually(
        async () => ((await watched.list(pods)).items!.some((pod) => pod.metadata.name === 'watch-1') ? true : undefined),
        'the new Pod through the reopened watch',
      )
      expect(watched.size).toBe(1)
    } finally {
      watched.close()
      session.close()
    }
  })
})
