/**
 * The chain probe against RPC endpoints that answer badly (HTML, not JSON, a JSON-RPC error, a
 * /net_info with thousands of peers, no answer at all), behind real port-forwards of the test
 * cluster: one line each, and the run goes on. Also node-utils' API on the port its Pod declares.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, patchStatus, useCluster } from '../cluster/kube.js'
import { forwardPort } from '../cluster/portforward.js'
import { runCli } from '../helpers/cli.js'

const NS = 'chain-bad-answers'
const servers: http.Server[] = []
const OLD_BLOCK = '2026-01-01T00:00:00Z'
const status = (height: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: -1,
    result: {
      node_info: { id: 'ab'.repeat(20), network: 'bad-1' },
      sync_info: { latest_block_height: String(height), latest_block_time: OLD_BLOCK, earliest_block_height: '1', catching_up: false },
    },
  })
const peer = (i: number) => ({
  node_info: { id: i.toString(16).padStart(40, '0') },
  is_outbound: i % 3 === 0,
  remote_ip: `10.1.${i >> 8}.${i & 255}`,
  connection_status: { Duration: '1', SendMonitor: { Start: '2026-01-01T00:00:00Z', Bytes: '100' }, padding: 'x'.repeat(400) },
})

/** What each node's RPC "process" does, keyed by path. */
const BEHAVIOURS: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {
  html: (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><title>502 Bad Gateway</title></html>'),
  garbage: (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('height: 12, peers: some'),
  rpcerror: (_req, res) =>
    res
      .writeHead(500, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: -1, error: { code: -32603, message: 'Internal error', data: 'node is shutting down' } })),
  crowded: (req, res) => {
    if (req.url === '/status') return res.writeHead(200, { 'content-type': 'application/json' }).end(status(4242))
    const peers = Array.from({ length: 6000 }, (_, i) => peer(i))
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: -1, result: { listening: true, n_peers: String(peers.length), peers } }))
  },
  hang: () => undefined,
}

async function serve(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

async function seedNode(name: string, rpcPort: number, nodeUtilsPort: number) {
  const node = await apply({
    apiVersion: 'cosmopilot.voluzi.com/v1',
    kind: 'ChainNode',
    metadata: { name, namespace: NS },
    spec: { app: { app: 'gaiad', image: 'ghcr.io/cosmos/gaia', version: 'v25.2.0' } },
  })
  await patchStatus(node, { status: { phase: 'Running', chainID: 'bad-1', validator: false } })
  const uid = (node.metadata as { uid?: string }).uid!
  await apply({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, ownerReferences: [{ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', name, uid, controller: true }] },
    spec: {
      nodeName: inject('kwokNode'),
      initContainers: [
        { name: 'node-utils', image: 'ghcr.io/voluzi/node-utils:4.1.0', restartPolicy: 'Always', ports: [{ name: 'node-utils', containerPort: 8000 }] },
      ],
      containers: [{ name: 'app', image: 'ghcr.io/cosmos/gaia:v25.2.0', ports: [{ name: 'rpc', containerPort: 26657 }] }],
    },
  })
  await forwardPort(NS, name, 26657, rpcPort, { probe: 'connect' })
  await forwardPort(NS, name, 8000, nodeUtilsPort, { probe: 'connect' })
}

describe('chain probe on bad RPC answers', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })
    // A node-utils stand-in: its two probe endpoints, as facts §5.1 describes them.
    const nodeUtils = await serve((req, res) => res.end(req.url === '/latest_height' ? '4242' : req.url === '/state_syncing' ? 'false' : ''))
    for (const [name, behaviour] of Object.entries(BEHAVIOURS)) await seedNode(name, await serve(behaviour), nodeUtils)
  }, 120_000)
  afterAll(() => {
    for (const server of servers) server.closeAllConnections?.()
    for (const server of servers) server.close()
  })

  it('says what each answer was in one line, reads the peer count of a huge /net_info, and finishes', async () => {
    const result = await runCli(['doctor', '--all', '-n', NS, '-o', 'json', '--fail-on', 'never', '--probe-window', '1s'], {
      env: { KUBECONFIG: inject('kubeconfigPath') },
      timeoutMs: 90_000,
    })
    expect(result.stderr).toBe('')
    const cluster = JSON.parse(result.stdout).clusters[0]
    const detail = (name: string) => cluster.nodes.find((n: { name: string }) => n.name === name).chain.detail as string
    expect(detail('html')).toBe('/status on 26657: answered HTML, not JSON-RPC (HTTP 200): <!DOCTYPE html><html><title>502 Bad Gateway</title></html>')
    expect(detail('garbage')).toBe('/status on 26657: answered HTTP 200 with something that is not JSON: height: 12, peers: some')
    expect(detail('rpcerror')).toBe('/status on 26657: RPC error -32603: Internal error: node is shutting down')
    expect(detail('hang')).toBe('/status on 26657: no answer within 5s')
    expect(detail('crowded')).toMatch(/^height 4242, stalled at 4242 since 2026-01-01T00:00:00Z, 6000 peer\(s\) \(\d+ in, \d+ out\)$/)
    for (const node of cluster.nodes) expect(node.chain.detail).not.toMatch(/\n/)
    const crowded = cluster.findings.find((f: { ruleId: string; subject: { name: string } }) => f.ruleId === 'not-syncing' && f.subject.name === 'crowded')
    const texts = crowded.evidence.map((e: { source: string; text: string }) => `${e.source}: ${e.text}`)
    expect(texts).toContain('node-utils :8000: /latest_height 4242, /state_syncing false')
    expect(texts.find((t: string) => t.startsWith('CometBFT RPC /net_info'))).toMatch(/^CometBFT RPC \/net_info: 6000 peer\(s\)/)
  }, 120_000)
})
