/**
 * What the chain probe costs on real CometBFT nodes (scenarios sc-validators, sc-chain-halt and the rest of the fleet),
 * counted from --debug: one port-forward per Pod port for a whole run, whatever the probes read over it (/status and
 * /net_info, the second reading, the commits of the signing read, the Cosmos SDK queries).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, clusterKube, useCluster } from '../cluster/kube.js'
import { runCli } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'

const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })

/**
 * How many port-forwards a doctor run's chain probe opened, per Pod port, and the ports each one carried ("ns/pod:26657,8000").
 * The signer checks (8080, 26659) are left out: each of them is one connection of its own by design (the gate test's
 * bytes are the first the port sends).
 */
async function forwards(args: string[]): Promise<Map<string, number> & { connections: string[]; again: string[]; handshakes: string[] }> {
  const result = await runCli(['doctor', ...args, '--debug', '-o', 'json', '--fail-on', 'never'], { env: env() })
  // 3: the fleet holds nodes doctor cannot measure whole (no chain behind their Pods).
  expect([0, 3], result.stderr.slice(-2000)).toContain(result.code)
  expect(JSON.parse(result.stdout).clusters[0].nodes.length).toBeGreaterThan(0)
  const counts = Object.assign(new Map<string, number>(), { connections: [] as string[], again: [] as string[], handshakes: [] as string[] })
  for (const line of result.stderr.split('\n')) {
    const handshake = /^debug: port-forward \S+: (TLS session resumed|full TLS handshake)$/.exec(line)?.[1]
    if (handshake) counts.handshakes.push(handshake)
    const [, pod, ports, again] = /^debug: port-forward (\S+):([\d,]+)( \(again: .*\))?$/.exec(line) ?? []
    if (!pod || /^(8080|26659)$/.test(ports)) continue
    // A port asked once more because its forward closed with no word (the API server can cut it before the Pod side's
    // words arrive, under load): the probe's one retry, not a second reading that could have shared the first forward.
    if (again) {
      counts.again.push(`${pod}:${ports}`)
      continue
    }
    counts.connections.push(`${pod}:${ports}`)
    for (const port of ports.split(',')) counts.set(`${pod}:${port}`, (counts.get(`${pod}:${port}`) ?? 0) + 1)
  }
  return counts
}

describe('chain probe cost', () => {
  beforeAll(async () => {
    await refreshScenarios()
  })

  it('a validator: its status, peers, the signing window and the chain modules over one port-forward per node', async () => {
    const counts = await forwards(['val-0', '-n', 'sc-validators', '--signing-window', '60'])
    expect(counts.get('sc-validators/val-0:26657')).toBe(1)
    expect([...counts.values()].every((n) => n === 1)).toBe(true)
    // Its RPC and node-utils ports over one port-forward: one connection and upgrade for the node, not one per port.
    expect(counts.connections).toContain('sc-validators/val-0:26657,8000')
  })

  it('the whole fleet: every Pod port probed is forwarded once', async () => {
    const counts = await forwards(['-A'])
    expect(counts.size).toBeGreaterThan(5)
    expect([...counts].filter(([, n]) => n > 1)).toEqual([])
    // At most one retry per port.
    expect(counts.again.filter((port, i) => counts.again.indexOf(port) !== i)).toEqual([])
    // The forwards open with the API connection, before its TLS session is in: they wait for it and resume it, instead
    // of a full handshake each (all of them did before). A session that came too late under load costs a few.
    expect(counts.handshakes.length).toBeGreaterThanOrEqual(counts.connections.length)
    expect(counts.handshakes.filter((h) => h === 'TLS session resumed').length).toBeGreaterThan(counts.handshakes.length / 2)
    // A node's ports share its port-forward: fewer connections than ports forwarded.
    expect(counts.connections.length).toBeLessThan(counts.size)
  })
})

/** The API requests of a status -A run (--debug's request lines), its output and its exit code. */
async function statusAll(output: 'wide' | 'json', context?: string, stateDir?: string, extraEnv: Record<string, string> = {}) {
  const result = await runCli(['status', '-A', '-o', output, '--debug', ...(context ? ['--context', context] : [])], {
    env: { ...env(), ...(stateDir ? { KUBECTL_CHAINNODE_STATE_DIR: stateDir } : {}), ...extraEnv },
  })
  const gets = result.stderr.split('\n').flatMap((line) => /^debug: GET (\S+)$/.exec(line)?.[1] ?? [])
  const total = Number(/^debug: (\d+) API requests to /m.exec(result.stderr)?.[1])
  return { ...result, gets, total }
}

/** The kinds every node's namespace needs listed: Pods, Events and ConfigMaps (the operator's own Pods are listed by label apart). */
const NAMESPACE_LISTS = /^\/api\/v1\/(?:namespaces\/([^/]+)\/)?(pods|events|configmaps)\?(?:fieldSelector=[^&]+&)?resourceVersion=0$/

/** status lists the Events about ChainNodes only: what its table reads of them. */
const EVENTS_ABOUT_NODES = `/api/v1/events?fieldSelector=${encodeURIComponent('involvedObject.kind=ChainNode')}&resourceVersion=0`

describe('status -A -o wide: the API requests it costs', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await refreshScenarios()
  })

  it('lists Pods, Events and ConfigMaps once across the cluster, not once per namespace: its requests do not grow with the namespaces', async () => {
    const run = await statusAll('wide')
    expect(run.code, run.stderr.slice(-2000)).toBe(0)
    const namespaces = new Set(
      run.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(/\s+/)[0]),
    )
    expect(namespaces.size).toBeGreaterThan(10)
    const lists = run.gets.flatMap((path) => {
      const [, namespace, plural] = NAMESPACE_LISTS.exec(path) ?? []
      return plural ? [`${namespace ?? '*'}/${plural}`] : []
    })
    expect(lists.sort()).toEqual(['*/configmaps', '*/events', '*/pods'])
    // The rest: the ChainNodes and their sets, the operator's release (its Deployments, Pods, manager logs, Leases and
    // Certificates) and the webhook configurations; none of them per namespace of a node.
    expect(run.total).toBe(run.gets.length)
    expect(run.total).toBeLessThan(namespaces.size)
  })

  it("reads the Events about ChainNodes and the ConfigMaps' metadata only, and still counts recreations and compares config-hashes", async () => {
    const run = await statusAll('json')
    expect(run.code, run.stderr.slice(-2000)).toBe(0)
    expect(run.gets).toContain(EVENTS_ABOUT_NODES)
    // The metadata-only list is smaller than the rendered files of one node's ConfigMap (config.toml and app.toml).
    const configMaps = /^debug: 200 in \d+ ms, ([\d.]+) kB, at \d+ ms: \/api\/v1\/configmaps\?resourceVersion=0$/m.exec(run.stderr)
    expect(Number(configMaps?.[1])).toBeLessThan(100)
    const nodes = (JSON.parse(run.stdout) as { nodes: { namespace: string; name: string; config: string; recreations: number }[] }).nodes
    const node = (ref: string) => nodes.find((n) => `${n.namespace}/${n.name}` === ref)
    // sc-config-change-restart: cfg-1's Pod runs an older config-hash than its ConfigMap's annotation; cfg-0 was recreated for a change.
    expect(node('sc-config-change-restart/cfg-1')).toMatchObject({ config: 'pending' })
    expect(node('sc-config-change-restart/cfg-0')).toMatchObject({ config: 'in-sync', recreations: 1 })
    expect(node('sc-signer-pubkey/val-1')?.recreations).toBeGreaterThan(0)
  })

  it('a user who may list them only namespace by namespace: each namespace is listed as before, and its nodes are read', async () => {
    // viewer: ChainNodes across the cluster, and Pods, Events and ConfigMaps only in four namespaces (a Role in each).
    const granted = ['sc-healthy', 'sc-validators', 'sc-chain-halt', 'sc-healthy-chain']
    const rbac = { apiGroup: 'rbac.authorization.k8s.io', apiVersion: 'rbac.authorization.k8s.io/v1' }
    const name = 'chainnode-test-across'
    const viewer = [{ kind: 'User', name: 'viewer', apiGroup: rbac.apiGroup }]
    const nodesRule = { apiGroups: ['cosmopilot.voluzi.com'], resources: ['chainnodes', 'chainnodesets'], verbs: ['get', 'list'] }
    const namespaceRule = { apiGroups: [''], resources: ['pods', 'events', 'configmaps'], verbs: ['get', 'list'] }
    await apply({ apiVersion: rbac.apiVersion, kind: 'ClusterRole', metadata: { name }, rules: [nodesRule] })
    await apply({
      apiVersion: rbac.apiVersion,
      kind: 'ClusterRoleBinding',
      metadata: { name },
      subjects: viewer,
      roleRef: { apiGroup: rbac.apiGroup, kind: 'ClusterRole', name },
    })
    for (const namespace of granted) {
      await apply({ apiVersion: rbac.apiVersion, kind: 'Role', metadata: { name, namespace }, rules: [namespaceRule] })
      await apply({
        apiVersion: rbac.apiVersion,
        kind: 'RoleBinding',
        metadata: { name, namespace },
        subjects: viewer,
        roleRef: { apiGroup: rbac.apiGroup, kind: 'Role', name },
      })
    }
    try {
      let run = await statusAll('json', 'viewer')
      // RBAC reaches the authorizer through an informer: retry until every grant shows.
      const readable = (r: Awaited<ReturnType<typeof statusAll>>) =>
        granted.every((ns) => r.gets.includes(`/api/v1/namespaces/${ns}/pods?resourceVersion=0`) && !r.stderr.includes(`list pods in ${ns}`))
      for (let i = 0; i < 20 && !readable(run); i++) {
        await new Promise((resolve) => setTimeout(resolve, 300))
        run = await statusAll('json', 'viewer')
      }
      // The list across the cluster was asked once per kind, refused, and each namespace listed instead.
      expect(run.gets.filter((path) => /^\/api\/v1\/(pods|events|configmaps)\?(?:fieldSelector=[^&]+&)?resourceVersion=0$/.test(path)).sort()).toEqual([
        '/api/v1/configmaps?resourceVersion=0',
        EVENTS_ABOUT_NODES,
        '/api/v1/pods?resourceVersion=0',
      ])
      expect(readable(run)).toBe(true)
      // Incomplete: the namespaces not granted could not be read, and say so as they did before; the granted ones were read.
      expect(run.code).toBe(3)
      const report = JSON.parse(run.stdout) as { nodes: { namespace: string; name: string; pod: string }[]; collectionErrors: { what: string }[] }
      const failed = report.collectionErrors.map((e) => e.what)
      expect(failed).toContain('list pods in sc-chain-no-peers')
      expect(failed.filter((what) => granted.some((ns) => what.endsWith(` in ${ns}`)))).toEqual([])
      expect(report.nodes.find((n) => n.namespace === 'sc-healthy' && n.name === 'fullnode-0')?.pod).toBe('Running')
    } finally {
      const kube = clusterKube()
      for (const namespace of granted) {
        await kube.delete({ apiVersion: rbac.apiVersion, kind: 'RoleBinding', metadata: { name, namespace } })
        await kube.delete({ apiVersion: rbac.apiVersion, kind: 'Role', metadata: { name, namespace } })
      }
      await kube.delete({ apiVersion: rbac.apiVersion, kind: 'ClusterRoleBinding', metadata: { name } })
      await kube.delete({ apiVersion: rbac.apiVersion, kind: 'ClusterRole', metadata: { name } })
    }
  })

  it("a cluster shared with much else: a list across it larger than the nodes' namespaces warrant is cut short, and each namespace is listed instead", async () => {
    // The budget per namespace made small enough that the scenario fleet's lists across the cluster exceed it, as a
    // shared cluster's thousands of other Pods and Events would (8 MB a namespace by default).
    const shared = { KUBECTL_CHAINNODE_TEST_ACROSS_BYTES_PER_NAMESPACE: '1024' }
    const stateDir = mkdtempSync(path.join(tmpdir(), 'chainnode-across-'))
    const whole = await statusAll('json', undefined, stateDir)
    // Twice: the second run sends its lists across the cluster with its first requests (the namespaces remembered).
    for (const run of [await statusAll('json', undefined, stateDir, shared), await statusAll('json', undefined, stateDir, shared)]) {
      expect(run.code, run.stderr.slice(-2000)).toBe(whole.code)
      const lists = run.gets.flatMap((get) => {
        const [, namespace, plural] = NAMESPACE_LISTS.exec(get) ?? []
        return plural ? [`${namespace ?? '*'}/${plural}`] : []
      })
      // Asked once across the cluster per kind, cut short, then asked namespace by namespace.
      expect(lists.filter((l) => l.startsWith('*/')).sort()).toEqual(['*/configmaps', '*/events', '*/pods'])
      const namespaces = new Set(lists.filter((l) => !l.startsWith('*/')).map((l) => l.split('/')[0]))
      expect(namespaces.size).toBeGreaterThan(10)
      expect(lists.filter((l) => l.endsWith('/pods')).length).toBe(namespaces.size + 1)
      // Nothing failed for it, and the same nodes show the same Pods, config states and recreations.
      const report = (text: string) => JSON.parse(text) as { nodes: Record<string, unknown>[]; collectionErrors: unknown[] }
      expect(report(run.stdout).collectionErrors).toEqual(report(whole.stdout).collectionErrors)
      const rows = (text: string) =>
        report(text)
          .nodes.map((n) => [n.namespace, n.name, n.pod, n.ready, n.restarts, n.recreations, n.config].join(' '))
          .sort()
      expect(rows(run.stdout)).toEqual(rows(whole.stdout))
    }
  })

  it('opens the port-forwards the last run probed with its first requests, each Pod port once, and shows the same nodes', async () => {
    const state = mkdtempSync(path.join(tmpdir(), 'probed-ports-'))
    const forwards = (stderr: string) => stderr.split('\n').filter((line) => /^debug: port-forward \S+:\d+$/.test(line))
    const firstAnswer = (lines: string[]) => lines.findIndex((line) => /^debug: \d{3} in /.test(line))
    const rows = (stdout: string) => stdout.split('\n').map((line) => line.split(/\s+/).slice(0, 2).join('/'))
    const first = await statusAll('wide', undefined, state)
    expect(first.code, first.stderr.slice(-2000)).toBe(0)
    // The first run learns the ports once the ChainNodes are listed; the second opens them before any answer has arrived.
    const lines = first.stderr.split('\n')
    expect(lines.findIndex((line) => line.startsWith('debug: port-forward'))).toBeGreaterThan(firstAnswer(lines))
    const file = path.join(state, 'probed-ports.json')
    const remembered = Object.values(JSON.parse(readFileSync(file, 'utf8')) as Record<string, { namespace: string; pod: string; port: number }[]>)[0]
    expect(remembered.map((p) => p.pod)).toContain('node-0')
    const second = await statusAll('wide', undefined, state)
    expect(second.code, second.stderr.slice(-2000)).toBe(0)
    const again = second.stderr.split('\n')
    expect(again.findIndex((line) => line.startsWith('debug: port-forward'))).toBeLessThan(firstAnswer(again))
    // The fleet spans many namespaces: the second run also lists the Pods, Events and ConfigMaps across the cluster at
    // once, where the first waited for the ChainNodes to know it would.
    const podList = (lines: string[]) => lines.indexOf('debug: GET /api/v1/pods?resourceVersion=0')
    expect(podList(lines)).toBeGreaterThan(firstAnswer(lines))
    expect(podList(again)).toBeGreaterThan(-1)
    expect(podList(again)).toBeLessThan(firstAnswer(again))
    expect(again.filter((line) => /^debug: GET \/api\/v1\/(pods|events|configmaps)\?(?:fieldSelector=[^&]+&)?resourceVersion=0$/.test(line))).toHaveLength(3)
    expect(forwards(second.stderr).filter((line, i, all) => all.indexOf(line) !== i)).toEqual([])
    // Only what the last run probed: the nodes with no running Pod (quota-0, restore-0…) are opened no forward now.
    const probed = remembered.map((p) => `debug: port-forward ${p.namespace}/${p.pod}:${p.port}`)
    expect(forwards(second.stderr).filter((line) => !probed.includes(line))).toEqual([])
    expect(forwards(first.stderr).filter((line) => !probed.includes(line)).length).toBeGreaterThan(0)
    expect(rows(second.stdout)).toEqual(rows(first.stdout))
    // A Pod gone since costs one forward nobody asks anything of, and changes nothing shown; the file then names the Pods probed.
    writeFileSync(file, JSON.stringify({ [Object.keys(JSON.parse(readFileSync(file, 'utf8')))[0]]: [{ namespace: 'sc-healthy', pod: 'gone-0', port: 26657 }] }))
    const stale = await statusAll('wide', undefined, state)
    expect(stale.code, stale.stderr.slice(-2000)).toBe(0)
    expect(forwards(stale.stderr)).toContain('debug: port-forward sc-healthy/gone-0:26657')
    expect(rows(stale.stdout)).toEqual(rows(first.stdout))
    expect(Object.values(JSON.parse(readFileSync(file, 'utf8')))[0]).toEqual(remembered)
  })

  it("doctor opens a node's RPC and node-utils ports the last run probed with its first requests, over one port-forward; status -o wide opens the RPC alone", async () => {
    const state = mkdtempSync(path.join(tmpdir(), 'probed-ports-doctor-'))
    const doctorAll = () => runCli(['doctor', '-A', '-o', 'json', '--fail-on', 'never', '--debug'], { env: { ...env(), KUBECTL_CHAINNODE_STATE_DIR: state } })
    // The signer checks (8080, 26659) are each a connection of their own by design, as in the cases above.
    const forwards = (stderr: string) =>
      stderr
        .split('\n')
        .flatMap((line) => /^debug: port-forward (\S+:[\d,]+)$/.exec(line)?.[1] ?? [])
        .filter((f) => !/:(8080|26659)$/.test(f))
    const firstAnswer = (stderr: string) => stderr.split('\n').findIndex((line) => /^debug: \d{3} in /.test(line))
    const firstForward = (stderr: string) => stderr.split('\n').findIndex((line) => /^debug: port-forward \S+:[\d,]+$/.test(line))
    const first = await doctorAll()
    expect([0, 3], first.stderr.slice(-2000)).toContain(first.code)
    expect(firstForward(first.stderr)).toBeGreaterThan(firstAnswer(first.stderr))
    const second = await doctorAll()
    expect([0, 3], second.stderr.slice(-2000)).toContain(second.code)
    expect(firstForward(second.stderr)).toBeLessThan(firstAnswer(second.stderr))
    // Both ports of a node in one port-forward, as the probe itself opens them, and no port twice.
    expect(forwards(second.stderr)).toContain('sc-healthy-chain/node-0:26657,8000')
    const ports = forwards(second.stderr).flatMap((f) =>
      f
        .split(':')[1]
        .split(',')
        .map((port) => `${f.split(':')[0]}:${port}`),
    )
    expect(ports.filter((port, i) => ports.indexOf(port) !== i)).toEqual([])
    const status = await statusAll('wide', undefined, state)
    expect(status.code, status.stderr.slice(-2000)).toBe(0)
    expect(forwards(status.stderr)).toContain('sc-healthy-chain/node-0:26657')
    expect(forwards(status.stderr).filter((f) => f.includes(','))).toEqual([])
    // What doctor learnt of node-utils outlives a status run, which reads none.
    const third = await doctorAll()
    expect(forwards(third.stderr)).toContain('sc-healthy-chain/node-0:26657,8000')
    expect(firstForward(third.stderr)).toBeLessThan(firstAnswer(third.stderr))
  })

  it('one node opens only its own remembered ports, and the namespace keeps the others for its next run', async () => {
    const state = mkdtempSync(path.join(tmpdir(), 'probed-ports-node-'))
    const doctor = (args: string[]) =>
      runCli(['doctor', ...args, '-o', 'json', '--fail-on', 'never', '--signing-window', '0', '--debug'], {
        env: { ...env(), KUBECTL_CHAINNODE_STATE_DIR: state },
      })
    const pods = (stderr: string) => new Set(stderr.split('\n').flatMap((line) => /^debug: port-forward (\S+):(?!8080$|26659$)[\d,]+$/.exec(line)?.[1] ?? []))
    const namespace = await doctor(['-n', 'sc-validators'])
    expect([...pods(namespace.stderr)]).toEqual(expect.arrayContaining(['sc-validators/val-0', 'sc-validators/val-2']))
    const one = await doctor(['val-2', '-n', 'sc-validators'])
    expect([0, 3], one.stderr.slice(-2000)).toContain(one.code)
    expect(pods(one.stderr).has('sc-validators/val-2')).toBe(true)
    // Its key search reads the other nodes of its chain: what is left out is the namespace's nodes opened ahead for nothing.
    const ahead = one.stderr.split('\n').slice(
      0,
      Math.max(
        0,
        one.stderr.split('\n').findIndex((line) => /^debug: \d{3} in /.test(line)),
      ),
    )
    // The forwards opened (not their TLS lines, which may come before the first answer too).
    expect(ahead.filter((line) => /^debug: port-forward \S+:[\d,]+$/.test(line)).map((line) => line.replace(/:[\d,]+$/, ''))).toEqual([
      'debug: port-forward sc-validators/val-2',
    ])
    const again = await doctor(['-n', 'sc-validators'])
    const opened = again.stderr.split('\n')
    const first = opened.findIndex((line) => /^debug: \d{3} in /.test(line))
    expect(opened.slice(0, first).filter((line) => /^debug: port-forward sc-validators\/val-0:\d/.test(line))).toHaveLength(1)
  })
})
