/**
 * Start and stop the kubectl-chainnode test cluster by hand.
 *
 *   npx tsx test/cluster/cli.ts up [--scenarios] [--dir .cluster]   # returns with the cluster running
 *   npx tsx test/cluster/cli.ts status [--dir .cluster]
 *   npx tsx test/cluster/cli.ts down [--dir .cluster]               # stops everything, removes the dir
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildTools, clusterHandle, runningComponents, startCluster, stopCluster, type ClusterHandle } from './cluster.js'
import { serveLogFile, setLogs } from './logs.js'
import { forwardPort } from './portforward.js'

const USAGE = `usage: tsx test/cluster/cli.ts <up|down|status> [--dir DIR] [--scenarios]

  up           build the tools (cached), start etcd + kube-apiserver + kwok + pprofd, return
  up --scenarios  also seed the scenarios of test/cluster/scenarios/index.ts
  status       show whether a cluster runs in DIR
  renew        renew the healthy operator's leader Lease every 2 s until stopped (up --scenarios starts it detached)
  down         stop every component of DIR and remove DIR
  --dir DIR    cluster directory (default .cluster)`

function parseArgs(argv: string[]): { cmd: string; dir: string; scenarios: boolean } {
  let cmd = ''
  let dir = '.cluster'
  let scenarios = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--dir') dir = argv[++i] ?? fail('--dir needs a value')
    else if (a.startsWith('--dir=')) dir = a.slice(6)
    else if (a === '--scenarios') scenarios = true
    else if (a === '-h' || a === '--help') {
      console.log(USAGE)
      process.exit(0)
    } else if (!cmd && !a.startsWith('-')) cmd = a
    else fail(`unknown argument: ${a}`)
  }
  if (!cmd) fail('missing command')
  return { cmd, dir: resolve(dir), scenarios }
}

function fail(msg: string): never {
  console.error(`${msg}\n\n${USAGE}`)
  process.exit(2)
}

const err = (line: string) => process.stderr.write(`${line}\n`)

function printUsage(c: ClusterHandle): void {
  const rel = relative(process.cwd(), c.kubeconfigPath)
  const kc = rel.startsWith('..') ? c.kubeconfigPath : `$PWD/${rel}`
  console.log(`
Test cluster running (${c.server}, started in ${(c.timings.total / 1000).toFixed(1)}s).

  export KUBECONFIG=${kc}
  export PATH=${c.binDir}:$PATH      # kubectl v1.36.3 matching the apiserver (optional)
  kubectl get nodes -o wide
  kubectl --context viewer get chainnodes -A   # user without RBAC bindings: Forbidden

Contexts: admin (current, system:masters), viewer (no bindings).
Nodes: ${c.kwokNode} (kwok-managed), ${c.unmanagedNode} (status set by hand).
pprof target: http://127.0.0.1:${c.pprofPort}/debug/pprof/   plain HTTP: http://127.0.0.1:${c.plainHttpPort}/
Logs: ${join(c.dir, 'logs')}
Stop: npx tsx test/cluster/cli.ts down${c.dir === resolve('.cluster') ? '' : ` --dir ${c.dir}`}`)
}

type ScenarioModule = {
  seedScenarios?: (...args: unknown[]) => Promise<unknown>
  keepLeaderRenewing?: (ctx: ReturnType<typeof scenarioCtx>) => () => void
}

async function scenarioModule(): Promise<ScenarioModule | undefined> {
  const modPath = fileURLToPath(new URL('./scenarios/index.ts', import.meta.url))
  if (!existsSync(modPath)) {
    err(`--scenarios: ${modPath} does not exist yet; cluster left running without scenarios`)
    return undefined
  }
  return (await import(pathToFileURL(modPath).href)) as ScenarioModule
}

function scenarioCtx(c: ClusterHandle) {
  return {
    kubeconfigPath: c.kubeconfigPath,
    server: c.server,
    adminToken: c.adminToken,
    viewerToken: c.viewerToken,
    kwokNode: c.kwokNode,
    unmanagedNode: c.unmanagedNode,
    pprofPort: c.pprofPort,
    pprofTakenPort: c.plainHttpPort,
    plainHttpPort: c.plainHttpPort,
    clusterDir: c.dir,
    binDir: c.binDir,
  }
}

/**
 * The seeded operator renews its leader Lease as the real manager does, for as long as the cluster runs: this command
 * returns, and without a renewer the healthy leader looked lost a few minutes later (leader-election on every node).
 * A detached child recorded in pids/, so `down` stops it with the rest.
 */
function startLeaderRenewer(c: ClusterHandle): void {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'renew', '--dir', c.dir], { detached: true, stdio: 'ignore' })
  if (child.pid === undefined) throw new Error('could not start the leader Lease renewer')
  child.unref()
  mkdirSync(join(c.dir, 'pids'), { recursive: true })
  writeFileSync(join(c.dir, 'pids', 'leader-renewer.pid'), `${child.pid}\n${process.execPath}\n`)
}

async function seed(c: ClusterHandle): Promise<void> {
  const mod = await scenarioModule()
  if (!mod) return
  if (typeof mod.seedScenarios !== 'function') {
    err(`--scenarios: the scenario module has no seedScenarios export; cluster left running without scenarios`)
    return
  }
  const t = Date.now()
  const ctx = scenarioCtx(c)
  const io = {
    setLogs: (ns: string, pod: string, containers: Parameters<typeof setLogs>[2]) => setLogs(ns, pod, containers, { dir: c.dir }),
    forwardPort: async (ns: string, pod: string, podPort: number, targetPort: number) => {
      await forwardPort(ns, pod, podPort, targetPort, { dir: c.dir })
    },
    serveLogFile: (ns: string, pod: string, container: string, file: string) => serveLogFile(ns, pod, container, file, { dir: c.dir }),
  }
  const result = await mod.seedScenarios(ctx, io)
  err(`scenarios seeded in ${((Date.now() - t) / 1000).toFixed(1)}s`)
  if (!runningComponents(c.dir).includes('leader-renewer')) startLeaderRenewer(c)
  if (Array.isArray(result)) {
    for (const s of result as Array<{ name?: string; namespace?: string; node?: string; symptomRule?: string | null }>) {
      console.log(`  ${s.namespace ?? s.name}/${s.node ?? ''}${s.symptomRule ? `  (${s.symptomRule})` : ''}`)
    }
  }
}

async function main(): Promise<void> {
  const { cmd, dir, scenarios } = parseArgs(process.argv.slice(2))
  process.env.CHAINNODE_CLUSTER_DIR = dir
  if (cmd === 'up') {
    const running = runningComponents(dir)
    if (running.length && existsSync(join(dir, 'cluster.json'))) {
      err(`a cluster is already running in ${dir} (${running.join(', ')})`)
      const c = clusterHandle(dir)
      if (scenarios) {
        try {
          await seed(c)
        } catch (e) {
          err(`re-seeding the running cluster failed (\`down\` then \`up --scenarios\` gives a fresh one): ${e instanceof Error ? e.message : String(e)}`)
          process.exitCode = 1
        }
      }
      printUsage(c)
      return
    }
    if (running.length) {
      err(`stopping leftovers of an incomplete cluster in ${dir}: ${running.join(', ')}`)
      await stopCluster(dir, { log: err })
    }
    const t = Date.now()
    const binDir = await buildTools({ log: err })
    err(`tools ready in ${((Date.now() - t) / 1000).toFixed(1)}s: ${binDir}`)
    const c = await startCluster({ dir, binDir, log: (l) => err(`[cluster] ${l}`) })
    if (scenarios) {
      try {
        await seed(c)
      } catch (e) {
        err(`seeding failed (the cluster keeps running; \`down\` stops it): ${e instanceof Error ? e.stack : String(e)}`)
        printUsage(c)
        process.exitCode = 1
        return
      }
    }
    printUsage(c)
  } else if (cmd === 'down') {
    if (!existsSync(dir)) {
      err(`no cluster directory ${dir}`)
      return
    }
    await stopCluster(dir, { remove: true, log: err })
    err(`stopped; removed ${dir}`)
  } else if (cmd === 'renew') {
    const renew = (await scenarioModule())?.keepLeaderRenewing
    if (!renew) fail('renew: the scenario module has no keepLeaderRenewing export')
    renew(scenarioCtx(clusterHandle(dir)))
    // Runs until `down` signals its process group; the renewal timer is unref'd, so hold the process open.
    setInterval(() => undefined, 1 << 30)
    await new Promise(() => undefined)
  } else if (cmd === 'status') {
    const running = runningComponents(dir)
    if (!running.length) {
      console.log(`no cluster running in ${dir}`)
      process.exitCode = 1
      return
    }
    console.log(`running in ${dir}: ${running.join(', ')}`)
    if (existsSync(join(dir, 'cluster.json'))) printUsage(clusterHandle(dir))
  } else {
    fail(`unknown command: ${cmd}`)
  }
}

main().then(
  // The children are detached and unref'd; leave without waiting for idle keep-alive sockets.
  () => process.exit(process.exitCode ?? 0),
  (e: unknown) => {
    err(e instanceof Error ? (e.stack ?? e.message) : String(e))
    process.exit(1)
  },
)
