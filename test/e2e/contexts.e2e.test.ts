import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { dump, load } from 'js-yaml'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'

/**
 * doctor over several contexts keeps every cluster's answer: a context that cannot be reached, or whose user
 * may read nothing (`viewer`), is one line of the report, the others are reported in full, and the exit code is 3.
 */
const work = mkdtempSync(path.join(tmpdir(), 'contexts-e2e-'))
const kubeconfig = path.join(work, 'kubeconfig')

describe('doctor --context a,b with one cluster out of reach', () => {
  beforeAll(async () => {
    await refreshScenarios()
    const config = load(readFileSync(inject('kubeconfigPath'), 'utf8')) as {
      clusters: { name: string; cluster: Record<string, unknown> }[]
      contexts: { name: string; context: Record<string, unknown> }[]
    }
    // A cluster nothing listens for: port 9 on localhost refuses at once.
    config.clusters.push({ name: 'dead', cluster: { ...config.clusters[0].cluster, server: 'https://127.0.0.1:9' } })
    config.contexts.push({ name: 'dead', context: { cluster: 'dead', user: 'admin', namespace: 'default' } })
    writeFileSync(kubeconfig, dump(config))
  })

  it('an unreachable context is one line; the reachable one is reported in full; exit 3', async () => {
    const { code, stdout, stderr } = await runCli(['doctor', 'fullnode-0', '-n', 'sc-healthy', '--context', 'admin,dead', '--no-probe'], {
      env: { KUBECONFIG: kubeconfig },
    })
    expect(stderr).not.toMatch(/^\s+at /m)
    expect(code).toBe(3)
    expect(stdout).toMatch(/^Cluster dead: not read \(unreachable\): cannot reach the API server/m)
    expect(stdout).toMatch(/^Cluster admin \(https:\/\/127\.0\.0\.1:\d+\)$/m)
    expect(stdout).toMatch(/fullnode-0/)
  })

  it('JSON carries the error of each cluster that could not be read', async () => {
    const { code, stdout } = await runCli(['doctor', 'fullnode-0', '-n', 'sc-healthy', '--context', 'admin,dead', '--no-probe', '-o', 'json'], {
      env: { KUBECONFIG: kubeconfig },
    })
    expect(code).toBe(3)
    const report = JSON.parse(stdout) as { clusters: { context: string; nodes: unknown[]; collectionErrors: { reason: string }[] }[] }
    const byContext = Object.fromEntries(report.clusters.map((c) => [c.context, c]))
    expect(byContext.dead.collectionErrors).toEqual([expect.objectContaining({ reason: 'unreachable' })])
    expect(byContext.admin.nodes.length).toBeGreaterThan(0)
  })

  it('a context whose user may read nothing is one line too', async () => {
    const { code, stdout, stderr } = await runCli(['doctor', 'fullnode-0', '-n', 'sc-healthy', '--context', 'admin,viewer', '--no-probe'], {
      env: { KUBECONFIG: kubeconfig },
    })
    expect(stderr).not.toMatch(/^\s+at /m)
    expect(code).toBe(3)
    expect(stdout).toMatch(/^Cluster viewer: not read \(forbidden\): /m)
    expect(stdout).toMatch(/^Cluster admin \(/m)
  })
})
