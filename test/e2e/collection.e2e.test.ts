import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { CLI, ROOT, runCli } from '../helpers/cli.js'
import { schemaErrors } from '../helpers/schema.js'
import { refreshScenarios } from './scenario-setup.js'
import { kindProblem } from '../../src/snapshot/bundle-shape.js'
import type { KubeObject } from '../../src/snapshot/types.js'

const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
const kubectl = (...args: string[]) => {
  const result = spawnSync(path.join(inject('binDir'), 'kubectl'), args, { env: { ...process.env, ...env() }, encoding: 'utf8' })
  expect(result.status, result.stderr).toBe(0)
  return result.stdout
}
/** Cells of a kubectl-style table row, cut at the header's column starts (empty cells stay empty). */
function cellsByHeader(header: string, row: string): Record<string, string> {
  // Columns are three spaces apart; a header may have words ("LIVE HEIGHT").
  const starts = [...header.matchAll(/\S+(?: \S+)*/g)].map((m) => [m[0], m.index!] as const)
  return Object.fromEntries(starts.map(([name, start], i) => [name, row.slice(start, i + 1 < starts.length ? starts[i + 1][1] : undefined).trim()]))
}

describe('status, describe, events and logs on the real cluster', () => {
  beforeAll(async () => {
    await refreshScenarios()
  })

  it("status -o wide shows exactly the server's wide columns that kubectl get shows; by default the essential ones", async () => {
    const [kubectlHeader, kubectlRow] = kubectl('get', 'chainnode', 'fullnode-0', '-n', 'sc-healthy', '-o', 'wide').trim().split('\n')
    const { code, stdout } = await runCli(['status', 'fullnode-0', '-n', 'sc-healthy', '-o', 'wide'], { env: env() })
    expect(code).toBe(0)
    const [header, row] = stdout.trim().split('\n')
    const theirs = cellsByHeader(kubectlHeader, kubectlRow)
    const mine = cellsByHeader(header, row)
    // The server's columns first, in its order; AGE last, as kubectl puts it.
    const server = Object.keys(theirs).filter((c) => c !== 'AGE')
    expect(Object.keys(mine).slice(0, server.length)).toEqual(server)
    expect(Object.keys(mine).at(-1)).toBe('AGE')
    // AGE moves while the two commands run; every other cell must be identical, empty ones included.
    for (const column of server) expect(mine[column], column).toBe(theirs[column])
    expect(mine).toMatchObject({ POD: 'Running', READY: '2/2', RESTARTS: '0', RECREATED: '0', CONFIG: 'in-sync' })
    const essential = await runCli(['status', 'fullnode-0', '-n', 'sc-healthy'], { env: env() })
    const [plainHeader, plainRow] = essential.stdout.trim().split('\n')
    const plain = cellsByHeader(plainHeader, plainRow)
    expect(Object.keys(plain)).toEqual(['NAME', 'STATUS', 'VERSION', 'CHAINID', 'LATESTHEIGHT', 'POD', 'READY', 'RESTARTS', 'CONFIG', 'AGE'])
    for (const column of ['NAME', 'STATUS', 'VERSION', 'CHAINID', 'LATESTHEIGHT']) expect(plain[column], column).toBe(theirs[column])
  })

  it('status -o json follows its schema', async () => {
    const { stdout } = await runCli(['status', '--all', '-n', 'sc-healthy', '-o', 'json'], { env: env() })
    const doc = JSON.parse(stdout)
    expect(schemaErrors('node-status.schema.json', doc)).toEqual([])
    expect(doc.nodes.map((n: { name: string }) => n.name)).toEqual(['fullnode-0', 'hub-fullnodes-0', 'hub-fullnodes-1'])
  })

  it('status and events with no NAME list the namespace, as kubectl get does (doctor still wants a node named)', async () => {
    const listing = await runCli(['status', '-n', 'sc-healthy', '-o', 'json'], { env: env() })
    expect(listing.code).toBe(0)
    expect(JSON.parse(listing.stdout).nodes.map((n: { name: string }) => n.name)).toEqual(['fullnode-0', 'hub-fullnodes-0', 'hub-fullnodes-1'])
    const events = await runCli(['events', '-n', 'sc-image-pull', '-o', 'json'], { env: env() })
    const everyNode = await runCli(['events', '--all', '-n', 'sc-image-pull', '-o', 'json'], { env: env() })
    expect(events.code).toBe(0)
    expect(JSON.parse(events.stdout).events.length).toBeGreaterThan(2)
    expect(JSON.parse(events.stdout).events).toEqual(JSON.parse(everyNode.stdout).events)
    // doctor -n NS diagnoses the nodes status -n NS lists; with nothing at all it says how to name them.
    const doctor = await runCli(['doctor', '-n', 'sc-healthy', '--no-probe', '-o', 'json', '--fail-on', 'never'], { env: env() })
    expect(doctor.code, doctor.stderr).not.toBe(2)
    const diagnosed = (JSON.parse(doctor.stdout) as { clusters: { nodes: { name: string }[] }[] }).clusters.flatMap((c) => c.nodes.map((n) => n.name))
    expect(diagnosed.sort()).toEqual(['fullnode-0', 'hub-fullnodes-0', 'hub-fullnodes-1'])
    const nothing = await runCli(['doctor'], { env: env() })
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toMatch(/no node given; pass NAME, --set NAME, -n NAMESPACE/)
  })

  it('describe prints the ChainNode, its Pod and their Events kubectl-style', async () => {
    const { code, stdout } = await runCli(['describe', 'fullnode-0', '-n', 'sc-healthy'], { env: env() })
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Name:\s+fullnode-0$/m)
    expect(stdout).toMatch(/^Kind:\s+ChainNode$/m)
    expect(stdout).toMatch(/^Controlled By:\s+ChainNode\/fullnode-0$/m)
    expect(stdout).toMatch(/^Init Containers:\n(.*\n)*\s+node-utils:/m)
    expect(stdout).toMatch(/^Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message/m)
    expect(stdout).toMatch(/NodeRunning/)
  })

  it('events are newest last, including events with a null lastTimestamp, with repeats collapsed', async () => {
    const { stdout } = await runCli(['events', '--all', '-n', 'sc-image-pull', '-o', 'json'], { env: env() })
    const events = JSON.parse(stdout).events as {
      lastTimestamp: string | null
      eventTime: string | null
      series?: { lastObservedTime: string }
      metadata: { creationTimestamp: string }
    }[]
    expect(events.length).toBeGreaterThan(2)
    const when = (e: (typeof events)[number]) => Date.parse(e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp)
    const times = events.map(when)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    const all = JSON.parse((await runCli(['events', '-A', '-o', 'json'], { env: env() })).stdout).events as typeof events
    expect(all.some((e) => e.lastTimestamp === null)).toBe(true)
    const text = (await runCli(['events', '--all', '-n', 'sc-image-pull'], { env: env() })).stdout
    expect(text).toMatch(/\(x\d+ over \d+\w+\)/)
    const forPod = JSON.parse((await runCli(['events', 'pull-0', '-n', 'sc-image-pull', '--for', 'pod/pull-0', '-o', 'json'], { env: env() })).stdout).events
    expect(forPod.length).toBeGreaterThan(0)
    expect(forPod.every((e: { involvedObject: { kind: string } }) => e.involvedObject.kind === 'Pod')).toBe(true)
  })

  it('logs reads the chain container by role on both operator lines, node-utils, the gate and the operator', async () => {
    const app = await runCli(['logs', 'fullnode-0', '-n', 'sc-healthy', '--tail', '5'], { env: env() })
    expect(app.code).toBe(0)
    expect(app.stdout.trim().split('\n')).toHaveLength(5)
    const legacy = await runCli(['logs', 'gaia-0', '-n', 'sc-healthy-legacy', '-c', 'app', '--tail', '3'], { env: env() })
    expect(legacy.code).toBe(0)
    expect(legacy.stdout.trim().split('\n')).toHaveLength(3)
    const utils = await runCli(['logs', 'prof-0', '-n', 'sc-profiling-unavailable', '-c', 'node-utils', '--grep', '6666'], { env: env() })
    expect(utils.stdout).toMatch(/6666/)
    const gate = await runCli(['logs', 'val-0', '-n', 'sc-signer-discovery-timeout', '-c', 'gate'], { env: env() })
    expect(gate.stdout).toMatch(/discovery/i)
    const previous = await runCli(['logs', 'val-1', '-n', 'sc-signer-pubkey', '--previous', '--grep', "can't get pubkey"], { env: env() })
    expect(previous.stdout).toMatch(/can't get pubkey/)
    const operator = await runCli(['logs', 'fullnode-0', '-n', 'sc-healthy', '-c', 'operator', '--tail', '2'], { env: env() })
    expect(operator.stdout).toMatch(/^\[cosmopilot-[\w-]+\] /m)
    const missing = await runCli(['logs', 'fullnode-0', '-n', 'sc-healthy', '-c', 'gate'], { env: env() })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/has no container "wait-cosmosigner-discovery"/)
  })

  it('logs answers as kubectl logs: -p without a previous run is an error, --tail 0 and -1, --since', async () => {
    const base = ['logs', 'fullnode-0', '-n', 'sc-healthy']
    const previous = await runCli([...base, '-p'], { env: env() })
    expect(previous.code).toBe(2)
    expect(previous.stderr.trim()).toMatch(/^error: previous terminated container "app" in pod "fullnode-0" not found; /)
    const none = await runCli([...base, '--tail', '0'], { env: env() })
    expect(none.code).toBe(0)
    expect(none.stdout).toBe('')
    const every = await runCli([...base, '--tail', '-1'], { env: env() })
    const five = await runCli([...base, '--tail', '5'], { env: env() })
    expect(every.stdout.trim().split('\n').length).toBeGreaterThan(5)
    expect(every.stdout.trim().split('\n').slice(-5)).toEqual(five.stdout.trim().split('\n'))
    const since = await runCli([...base, '--tail', '-1', '--since', '1s'], { env: env() })
    expect(since.code).toBe(0)
    expect(since.stdout.split('\n').length).toBeLessThan(every.stdout.split('\n').length)
  })

  it('logs -f streams until interrupted and leaves nothing behind', async () => {
    const child = spawn(CLI, ['logs', 'fullnode-0', '-n', 'sc-healthy', '-f', '--tail', '2'], { env: { ...process.env, ...env(), NO_COLOR: '1' } })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    // Wait for the tail to arrive (a loaded machine starts the process slowly), then interrupt.
    for (let i = 0; i < 300 && out.trim().split('\n').length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100))
    child.kill('SIGINT')
    const code = await new Promise((resolve) => child.on('close', resolve))
    expect(out.trim().split('\n').length).toBeGreaterThanOrEqual(2)
    expect(code).toBe(130)
  })

  it('reads list-type data once per namespace: more nodes, same number of list requests', async () => {
    const count = async (args: string[]) => {
      const { stderr } = await runCli([...args, '--debug', '-o', 'json', '--fail-on', 'never', '--tail', '1'], { env: env() })
      return stderr.split('\n').filter((l) => /^debug: GET /.test(l) && !/\/log\?/.test(l)).length
    }
    // hub-fullnodes-0 belongs to the set hub like another node of the namespace: the same lists are needed.
    const one = await count(['doctor', 'hub-fullnodes-0', '-n', 'sc-healthy'])
    const three = await count(['doctor', '--all', '-n', 'sc-healthy'])
    expect(three).toBe(one)
    // fullnode-0 needs no set, signer or snapshot: its run leaves those lists out.
    expect(await count(['doctor', 'fullnode-0', '-n', 'sc-healthy'])).toBe(one - 1)
  })

  it("asks for the operator's log with the first reads once it knows the manager's Pod, and shows the same either way", async () => {
    const state = mkdtempSync(path.join(tmpdir(), 'operator-pods-'))
    const status = (stateDir: string) =>
      runCli(['status', 'quota-0', '-n', 'sc-reconcile-failing', '--debug'], { env: { ...env(), KUBECTL_CHAINNODE_STATE_DIR: stateDir } })
    // Ages tick between runs; everything else must be the same.
    const steady = (text: string) => text.replace(/\b\d+(?:[smhd]\d*)+\b/g, '<age>')
    const isLogRead = (line: string) => /^debug: GET .*\/log\?container=manager/.test(line)
    const first = await status(state)
    expect(first.code, first.stderr).toBe(0)
    // status's notes go to stderr (stdout holds only the table).
    expect(first.stderr).toMatch(/Reconcile failing/)
    const remembered = JSON.parse(readFileSync(path.join(state, 'operator-pods.json'), 'utf8')) as Record<string, { pod: string }[]>
    const [manager] = Object.values(remembered)[0]
    // The first run learns the Pod from the list; the second asks for its log before any answer has arrived.
    const second = await status(state)
    const lines = second.stderr.split('\n')
    expect(lines.findIndex(isLogRead)).toBeLessThan(lines.findIndex((l) => /^debug: \d{3} in /.test(l)))
    expect(lines.filter(isLogRead)).toHaveLength(1)
    expect(steady(second.stdout)).toBe(steady(first.stdout))
    // A Pod that is gone costs one read more and changes nothing else; the file then names the Pod again.
    writeFileSync(path.join(state, 'operator-pods.json'), JSON.stringify({ [Object.keys(remembered)[0]]: [{ namespace: 'cosmopilot-system', pod: 'gone-0' }] }))
    const stale = await status(state)
    expect(stale.code).toBe(0)
    expect(steady(stale.stdout)).toBe(steady(first.stdout))
    expect(stale.stderr.split('\n').filter(isLogRead)).toHaveLength(2)
    expect(JSON.parse(readFileSync(path.join(state, 'operator-pods.json'), 'utf8'))).toEqual(remembered)
    expect(manager.pod).not.toBe('gone-0')
  })

  it("after a run over every namespace, a run of one namespace asks only for its own operator's log", async () => {
    const state = mkdtempSync(path.join(tmpdir(), 'operator-pods-'))
    const run = (args: string[]) => runCli([...args, '--debug'], { env: { ...env(), KUBECTL_CHAINNODE_STATE_DIR: state } })
    const managerLogReads = (stderr: string) => stderr.split('\n').filter((line) => /^debug: GET .*\/log\?container=manager/.test(line))
    const everywhere = await run(['status', '-A'])
    expect(everywhere.code, everywhere.stderr).toBe(0)
    expect(managerLogReads(everywhere.stderr).length).toBeGreaterThan(1)
    const one = await run(['status', 'quota-0', '-n', 'sc-reconcile-failing'])
    expect(one.code, one.stderr).toBe(0)
    expect(managerLogReads(one.stderr)).toHaveLength(1)
  })

  it('works as a kubectl plugin: kubectl chainnode status', () => {
    const result = spawnSync('kubectl', ['chainnode', 'status', 'fullnode-0', '-n', 'sc-healthy'], {
      env: { ...process.env, ...env(), PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}`, NO_COLOR: '1' },
      encoding: 'utf8',
    })
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^NAME\s+STATUS/)
    expect(result.stdout).toMatch(/fullnode-0\s+Running/)
  })
})

describe('support bundles', () => {
  it('collect writes the documented layout, and describe/events/logs replay it offline like live', async () => {
    await refreshScenarios()
    const dir = mkdtempSync(path.join(tmpdir(), 'bundle-'))
    const out = path.join(dir, 'tree')
    const collect = await runCli(['collect', '--all', '-n', 'sc-signer-pubkey', '--out', out], { env: env() })
    expect(collect.code, collect.stderr).toBe(0)
    expect(collect.stderr).toMatch(/wrote .*: 1 node\(s\)/)
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))
    expect(manifest).toMatchObject({
      kind: 'chainnode-bundle',
      formatVersion: 1,
      context: 'admin',
      redacted: true,
      collected: { chainNodes: ['sc-signer-pubkey/val-1'] },
    })
    expect(manifest.cliVersion).toMatch(/^\d+\.\d+\.\d+/)
    expect(readdirSync(path.join(out, 'resources', 'sc-signer-pubkey'))).toContain('Pod.json')
    // The API server's own classes are always there, so priority-class-missing can tell a read list from an unread one.
    const classes = JSON.parse(readFileSync(path.join(out, 'resources', '_cluster', 'PriorityClass.json'), 'utf8')) as { metadata: { name: string } }[]
    expect(classes.map((c) => c.metadata.name)).toEqual(expect.arrayContaining(['system-cluster-critical', 'system-node-critical', 'cosmopilot-nodes']))
    expect(statSync(path.join(out, 'logs', 'sc-signer-pubkey', 'val-1')).isDirectory()).toBe(true)
    // What a real API server writes has the shape each kind's typed view declares (nulls where Go writes them).
    for (const folder of readdirSync(path.join(out, 'resources')))
      for (const file of readdirSync(path.join(out, 'resources', folder))) {
        const objects = JSON.parse(readFileSync(path.join(out, 'resources', folder, file), 'utf8')) as KubeObject[]
        for (const obj of objects) expect(kindProblem(obj), `${obj.kind} ${obj.metadata.name}`).toBeUndefined()
      }
    for (const args of [
      ['describe', 'val-1'],
      ['events', 'val-1', '-o', 'json'],
    ]) {
      const live = await runCli([...args, '-n', 'sc-signer-pubkey'], { env: env() })
      const offline = await runCli([...args, '--bundle', out])
      expect(offline.code).toBe(0)
      // Ages move between the two runs, and with them the column padding.
      const normalise = (text: string) =>
        text
          .replace(/\d+[smhdy](\d+s)?( ago)?/g, 'AGE')
          .replace(/"context": "[^"]*"/, '')
          .replace(/ +/g, ' ')
      expect(normalise(offline.stdout)).toEqual(normalise(live.stdout))
    }
    const logs = await runCli(['logs', 'val-1', '--bundle', out, '--grep', "can't get pubkey"])
    expect(logs.stdout).toMatch(/can't get pubkey/)
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
  })

  it('a bundle gives doctor --bundle the findings live doctor gives, on every scope (-A, --set, -l, one node)', async () => {
    await refreshScenarios()
    const dir = mkdtempSync(path.join(tmpdir(), 'same-answer-'))
    type Finding = { ruleId: string; severity: string; node: { namespace?: string; name: string }; subject: object }
    const essence = (stdout: string) =>
      (JSON.parse(stdout).clusters[0].findings as Finding[])
        .map(({ ruleId, severity, node, subject }) => JSON.stringify({ ruleId, severity, node, subject }))
        .sort()
    const scopes: [string, string[]][] = [
      ['all', ['-A']],
      ['set', ['--set', 'hub', '-n', 'sc-healthy']],
      ['selector', ['-A', '-l', 'nodeset=hub']],
      ['node', ['prof-0', '-n', 'sc-profiling-unavailable']],
    ]
    for (const [name, scope] of scopes) {
      const out = path.join(dir, `${name}.tgz`)
      const collect = await runCli(['collect', ...scope, '--out', out], { env: env() })
      // The closing line says what the bundle left out, if anything.
      expect(collect.stderr, name).toMatch(/^wrote .*: \d+ node\(s\), .*(nothing left out|log\(s\) left out \(.*listed in manifest\.json leftOut\))$/m)
      const live = await runCli(['doctor', ...scope, '-o', 'json', '--fail-on', 'never'], { env: env() })
      const offline = await runCli(['doctor', '--bundle', out, ...scope.filter((a) => a !== '-A'), '-o', 'json', '--fail-on', 'never'])
      expect(offline.stderr, name).toBe('')
      expect(essence(offline.stdout), name).toEqual(essence(live.stdout))
      if (name === 'all' || name === 'node')
        expect(
          essence(offline.stdout).some((f) => f.includes('"profiling-unavailable"')),
          name,
        ).toBe(true)
    }
    // -l is the API server's to apply: the nodes it leaves out are not probed, so no chain reading of theirs is in the bundle.
    const selectorBundle = path.join(dir, 'selector.tgz')
    const probesFile = spawnSync('tar', ['tzf', selectorBundle], { encoding: 'utf8' })
      .stdout.split('\n')
      .find((f) => /(^|\/)probes\.json$/.test(f))!
    const probes = JSON.parse(spawnSync('tar', ['xzf', selectorBundle, '-O', probesFile], { encoding: 'utf8' }).stdout) as {
      namespace: string
      pod: string
    }[]
    expect(probes.length).toBeGreaterThan(0)
    expect(probes.filter((p) => p.namespace !== 'sc-healthy' || !p.pod.startsWith('hub-'))).toEqual([])
    // -A keeps the logs of Ready Pods (prof-0 runs fine): its node-utils log is in the bundle and in the manifest's count.
    const listing = spawnSync('tar', ['tzf', path.join(dir, 'all.tgz')], { encoding: 'utf8' }).stdout
    expect(listing).toMatch(/logs\/sc-profiling-unavailable\/prof-0\/node-utils\.log/)
  })

  it('refuses what is not a bundle, with one line and exit code 2', async () => {
    const notBundle = await runCli(['doctor', '--bundle', path.join(ROOT, 'package.json')])
    expect(notBundle.code).toBe(2)
    expect(notBundle.stderr.trim().split('\n')).toHaveLength(1)
    expect(notBundle.stderr).toMatch(/is not a bundle/)
  })
})
