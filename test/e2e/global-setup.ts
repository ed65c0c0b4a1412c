/**
 * vitest globalSetup for test/e2e/**\/*.e2e.test.ts: builds the Go tools (cached), starts a
 * throw-away cluster in a temp dir, provides its coordinates to the tests, stops it afterwards.
 *
 * In a test:
 *   import { inject } from 'vitest'
 *   const kubeconfig = inject('kubeconfigPath')
 *   useCluster(inject('clusterDir'))        // for the helpers in test/cluster/*.ts
 *
 * When test/cluster/scenarios/index.ts exists, its seedScenarios() runs once after the cluster is
 * up (the doctor/collection e2e tests read those namespaces); CHAINNODE_E2E_SCENARIOS=0 skips it.
 *
 * Env: CHAINNODE_KEEP_CLUSTER=1 leaves the cluster running (prints its dir; stop it with
 * `npx tsx test/cluster/cli.ts down --dir DIR`). CHAINNODE_TOOLS_DIR moves the tool cache.
 * CHAINNODE_E2E_VERBOSE=1 prints build and start progress.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { TestProject } from 'vitest/node'
import { buildTools, killClusterSync, startCluster, stopCluster } from '../cluster/cluster.js'

declare module 'vitest' {
  interface ProvidedContext {
    /** kubeconfig with contexts `admin` (current, system:masters) and `viewer` (no RBAC bindings). */
    kubeconfigPath: string
    /** https://127.0.0.1:PORT */
    server: string
    adminToken: string
    viewerToken: string
    /** Node managed by kwok: pods there become Running/Ready by themselves (unless labelled chainnode.test/manual-status). */
    kwokNode: string
    /** Node nobody manages: pods there keep the status a test patches; logs/port-forward still work. */
    unmanagedNode: string
    /** 127.0.0.1 port of pprofd (net/http/pprof; stands in for node-utils' 127.0.0.1:6666). */
    pprofPort: number
    /** 127.0.0.1 port answering plain HTML on every path ("not a profile"). */
    plainHttpPort: number
    /** Directory with kubectl (v1.36.3), kube-apiserver, etcd, kwok, pprofd. */
    binDir: string
    /** Cluster directory (cluster.json, kubeconfig, logs/); pass it to useCluster(). */
    clusterDir: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const log = (l: string) => process.stderr.write(`[e2e cluster] ${l}\n`)
  const t = Date.now()
  const binDir = await buildTools({ log: process.env.CHAINNODE_E2E_VERBOSE ? log : undefined })
  log(`tools ready in ${((Date.now() - t) / 1000).toFixed(1)}s`)
  const dir = mkdtempSync(join(tmpdir(), 'chainnode-e2e-'))
  const c = await startCluster({ dir, binDir, log: process.env.CHAINNODE_E2E_VERBOSE ? log : undefined })
  log(`cluster ${c.server} ready in ${(c.timings.total / 1000).toFixed(1)}s (dir ${dir})`)

  process.env.CHAINNODE_CLUSTER_DIR = dir
  // If vitest dies without running the teardown, do not leave etcd/apiserver/kwok behind.
  const onExit = () => {
    if (process.env.CHAINNODE_KEEP_CLUSTER !== '1') killClusterSync(dir)
  }
  process.once('exit', onExit)
  project.provide('kubeconfigPath', c.kubeconfigPath)
  project.provide('server', c.server)
  project.provide('adminToken', c.adminToken)
  project.provide('viewerToken', c.viewerToken)
  project.provide('kwokNode', c.kwokNode)
  project.provide('unmanagedNode', c.unmanagedNode)
  project.provide('pprofPort', c.pprofPort)
  project.provide('plainHttpPort', c.plainHttpPort)
  project.provide('binDir', c.binDir)
  project.provide('clusterDir', dir)

  const scenariosModule = fileURLToPath(new URL('../cluster/scenarios/index.ts', import.meta.url))
  let stopRenewing = () => {}
  if (process.env.CHAINNODE_E2E_SCENARIOS !== '0' && existsSync(scenariosModule)) {
    const ts = Date.now()
    try {
      const mod = (await import(pathToFileURL(scenariosModule).href)) as {
        seedScenarios: (ctx: Record<string, unknown>) => Promise<Array<{ name: string }>>
        keepLeaderRenewing: (ctx: Record<string, unknown>) => () => void
      }
      const ctx = {
        kubeconfigPath: c.kubeconfigPath,
        server: c.server,
        adminToken: c.adminToken,
        kwokNode: c.kwokNode,
        unmanagedNode: c.unmanagedNode,
        pprofPort: c.pprofPort,
        pprofTakenPort: c.plainHttpPort,
        clusterDir: dir,
      }
      const seeded = await mod.seedScenarios(ctx)
      stopRenewing = mod.keepLeaderRenewing(ctx)
      log(`seeded ${seeded.length} scenarios in ${((Date.now() - ts) / 1000).toFixed(1)}s`)
    } catch (e) {
      log(`seeding scenarios failed; logs stay in ${join(dir, 'logs')}`)
      process.removeListener('exit', onExit)
      await stopCluster(dir, { log })
      throw e
    }
  }

  return async () => {
    stopRenewing()
    process.removeListener('exit', onExit)
    if (process.env.CHAINNODE_KEEP_CLUSTER === '1') {
      log(`CHAINNODE_KEEP_CLUSTER=1: left running in ${dir}; stop with: npx tsx test/cluster/cli.ts down --dir ${dir}`)
      return
    }
    await stopCluster(dir, { remove: true, log })
  }
}
