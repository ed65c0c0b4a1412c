import { beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, useCluster } from '../cluster/kube.js'
import { runCli } from '../helpers/cli.js'
import { seedNode } from './seed-node.js'

// Issue 40 item 8: a NAME without -n, a set named as a node, a namespace that does not exist, -n alone.
// The test kubeconfig's context namespace is "default", which holds none of these nodes.
const [A, B] = ['t-tired-a', 't-tired-b']
const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
const oneLine = (stderr: string) => {
  const lines = stderr.trim().split('\n')
  expect(lines, stderr).toHaveLength(1)
  expect(stderr).not.toMatch(/^\s+at /m)
  return lines[0]
}

describe('tired mistakes against a real cluster', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    const app = [{ name: 'app', image: 'ghcr.io/cosmos/gaia:v25.2.0' }]
    await seedNode(A, 'tm-twice', { status: { phase: 'Running', validator: false }, containers: app })
    await seedNode(B, 'tm-twice', { status: { phase: 'Running', validator: false }, containers: app })
    await seedNode(B, 'tm-once', { status: { phase: 'Running', validator: false }, containers: app })
    await apply({
      apiVersion: 'cosmopilot.voluzi.com/v1',
      kind: 'ChainNodeSet',
      metadata: { name: 'tm-set', namespace: A },
      spec: { app: { app: 'gaiad', image: 'ghcr.io/cosmos/gaia', version: 'v25.2.0' }, genesis: { url: 'https://example.invalid/g.json' }, nodes: [] },
    })
  })

  it.for([['doctor', '--no-probe'], ['status'], ['describe'], ['events'], ['timeline', '--no-probe'], ['collect', '--out', '/dev/null/never.tgz']])(
    '%s NAME without -n names the namespace that holds it',
    { timeout: 60_000 },
    async ([command, ...flags]) => {
      const result = await runCli([command, 'tm-once', ...flags], { env: env() })
      expect(result.code, result.stderr).toBe(2)
      expect(oneLine(result.stderr)).toBe(`error: chainnode "tm-once" not found in namespace "default"; it is in namespace ${B}: add -n ${B}`)
    },
  )

  it('a NAME in several namespaces: each is named', async () => {
    const result = await runCli(['doctor', 'tm-twice', '--no-probe'], { env: env() })
    expect(result.code).toBe(2)
    expect(oneLine(result.stderr)).toMatch(new RegExp(`; it is in namespaces ${A} and ${B}: add -n ${A} or -n ${B}$`))
  })

  it('a ChainNodeSet named as a node: use --set', async () => {
    const result = await runCli(['doctor', 'tm-set', '-n', A, '--no-probe'], { env: env() })
    expect(result.code).toBe(2)
    expect(oneLine(result.stderr)).toMatch(new RegExp(`"tm-set" is a ChainNodeSet in namespace ${A}: use --set tm-set$`))
  })

  it('a namespace that does not exist is named as such, with the nearest that does, for a NAME and for a listing', async () => {
    for (const args of [
      ['doctor', 'nothing-0', '-n', 't-tired-aa', '--no-probe'],
      ['status', '-n', 't-tired-aa'],
      ['events', '-n', 't-tired-aa'],
    ]) {
      const result = await runCli(args, { env: env() })
      expect(result.code, args.join(' ')).toBe(2)
      expect(oneLine(result.stderr)).toBe(`error: namespace "t-tired-aa" does not exist; did you mean "${A}"? list them with: kubectl get namespaces`)
    }
  })

  it('an empty namespace that exists is still listed as empty, as kubectl does', async () => {
    const result = await runCli(['status', '-n', 'default'], { env: env() })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim()).toBe('No ChainNodes found in default namespace.')
  })

  it('doctor -n NS diagnoses the nodes status -n NS lists', { timeout: 60_000 }, async () => {
    const [doctor, status] = await Promise.all([
      runCli(['doctor', '-n', B, '--no-probe', '-o', 'json', '--fail-on', 'never'], { env: env() }),
      runCli(['status', '-n', B, '-o', 'name'], { env: env() }),
    ])
    expect(doctor.code, doctor.stderr).not.toBe(2)
    const report = JSON.parse(doctor.stdout) as { clusters: { nodes: { name: string }[] }[] }
    const diagnosed = report.clusters.flatMap((c) => c.nodes.map((n) => n.name)).sort()
    expect(diagnosed).toEqual(['tm-once', 'tm-twice'])
    expect(
      status.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('/').pop()),
    ).toEqual(diagnosed)
  })
})
