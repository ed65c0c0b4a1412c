import { beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, deleteObject, patchStatus, useCluster } from '../cluster/kube.js'
import { setLogs } from '../cluster/logs.js'
import { runCli } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'
import { seedNode } from './seed-node.js'

/**
 * `logs` on the Pods one most needs: whatever state a container is in, no stack trace; a container that
 * cannot be read is one line on stderr, the others are still printed, and the exit code says the answer
 * is incomplete (3).
 */
const NS = 't-logs-states'
const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
const CONTAINERS = [
  { name: 'app', image: 'ghcr.io/cosmos/gaia:v25.2.0' },
  { name: 'sidecar', image: 'busybox' },
]
const INIT = [{ name: 'node-utils', image: 'ghcr.io/voluzi/node-utils:4.1.0' }]
const noStack = (stderr: string) => {
  expect(stderr).not.toMatch(/^\s+at /m)
  expect(stderr).not.toMatch(/internal error|ApiError/)
}
const terminated = (reason: string, exitCode: number) => ({
  terminated: { reason, exitCode, startedAt: '2026-11-26T10:00:00Z', finishedAt: '2026-11-26T10:05:00Z' },
})

/** A node whose Pod sits on the unmanaged node, so it keeps the container states we patch (and its finalizers). */
async function seedPod(name: string, states: Record<string, unknown>, phase: string, finalizers: string[] = []): Promise<void> {
  const { uid } = await seedNode(NS, name, { status: { phase: 'Running', validator: false } })
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS } }
  await apply({
    ...pod,
    metadata: { ...pod.metadata, finalizers, ownerReferences: [{ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', name, uid, controller: true }] },
    spec: { nodeName: inject('unmanagedNode'), initContainers: INIT, containers: CONTAINERS },
  })
  const status = (n: string) => ({
    name: n,
    image: 'x',
    imageID: '',
    ready: false,
    restartCount: 0,
    state: states[n] ?? { running: { startedAt: '2026-11-26T10:00:00Z' } },
  })
  await patchStatus(pod, { status: { phase, initContainerStatuses: [status('node-utils')], containerStatuses: CONTAINERS.map((c) => status(c.name)) } })
}

describe('logs never crashes on a Pod state', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await refreshScenarios()
    await seedPod('failed-0', { app: terminated('Error', 1) }, 'Failed')
    await setLogs(NS, 'failed-0', { app: { current: ['panic: failed to reach remote signer'] }, 'node-utils': { current: ['level=info msg="started"'] } })
    await seedPod('done-0', { app: terminated('Completed', 0), sidecar: terminated('Completed', 0) }, 'Succeeded')
    await setLogs(NS, 'done-0', { app: { current: ['exiting cleanly'] }, sidecar: { current: ['bye'] } })
    // Terminating: a finalizer holds the Pod after the delete (nobody on the unmanaged node removes it).
    await seedPod('going-0', {}, 'Running', ['chainnode.test/hold'])
    await setLogs(NS, 'going-0', { app: { current: ['shutting down'] } })
    await deleteObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'going-0', namespace: NS } }, { wait: false })
  })

  it('a container waiting in ImagePullBackOff: one line as kubectl words it, exit 3; -c all still prints node-utils', async () => {
    const app = await runCli(['logs', 'pull-0', '-n', 'sc-image-pull'], { env: env() })
    noStack(app.stderr)
    expect(app.code).toBe(3)
    expect(app.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: container "app" in pod "pull-0" is waiting to start: ImagePullBackOff/)])
    const all = await runCli(['logs', 'pull-0', '-n', 'sc-image-pull', '-c', 'all'], { env: env() })
    noStack(all.stderr)
    expect(all.code).toBe(3)
    expect(all.stderr.trim().split('\n')).toHaveLength(1)
    expect(all.stdout).toMatch(/^\[node-utils\] /m)
  })

  it('a Pod in Error: its logs are read, and a container without a log is one line', async () => {
    const app = await runCli(['logs', 'failed-0', '-n', NS], { env: env() })
    noStack(app.stderr)
    expect(app.code).toBe(0)
    expect(app.stdout).toContain('panic: failed to reach remote signer')
    const all = await runCli(['logs', 'failed-0', '-n', NS, '-c', 'all'], { env: env() })
    noStack(all.stderr)
    expect(all.stdout).toContain('[app] panic: failed to reach remote signer')
    expect(all.stdout).toContain('[node-utils] level=info msg="started"')
    // The sidecar has no log to give: one line for it, the rest printed.
    expect(all.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: .*container "sidecar" in pod "failed-0"/)])
    expect(all.code).toBe(3)
  })

  it('a Completed Pod and a Terminating one are read as any other', async () => {
    const done = await runCli(['logs', 'done-0', '-n', NS, '-c', 'all'], { env: env() })
    noStack(done.stderr)
    expect(done.stdout).toContain('[app] exiting cleanly')
    expect(done.stdout).toContain('[sidecar] bye')
    const going = await runCli(['logs', 'going-0', '-n', NS], { env: env() })
    noStack(going.stderr)
    expect(going.code).toBe(0)
    expect(going.stdout).toContain('shutting down')
  })

  it('-p on a Pod that never restarted stays the one usage error it is in kubectl', async () => {
    const previous = await runCli(['logs', 'done-0', '-n', NS, '-p'], { env: env() })
    noStack(previous.stderr)
    expect(previous.code).toBe(2)
    expect(previous.stderr.trim().split('\n')).toHaveLength(1)
  })
})
