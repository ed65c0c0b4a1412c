/**
 * serve's cost on a fleet: requests per cycle, cycle time and memory for --fleet sizes (default 500 and 5000) over
 * --fleet-cycles cycles each (default 20), and memory over --cycles back-to-back cycles (default 1000) on a fleet of
 * --long-fleet nodes (default 50), to show it does not grow.
 *   npm run build && node --expose-gc --import tsx bench/serve.ts [--fleet 500,5000] [--fleet-cycles 20] [--cycles 1000]
 *     [--long-fleet 50] [--malloc-arena-max 2] [--serve-node-options=--max-semi-space-size=4] [--dir .cluster] [--reuse]
 * Against the cluster in --dir (npm run cluster:up) or a throw-away one; fleets are seeded by bench/fleet.ts, 1 in 20
 * nodes broken, without live chains, so the cycles run with --no-probe (a probe is one port-forward per node).
 * The fleets are read by the built CLI as its own process (`chainnode serve --interval 1s`, NODE_OPTIONS from
 * --serve-node-options, MALLOC_ARENA_MAX as deploy/serve/deployment.yaml sets it), as a container runs it: its peak RSS is the kernel's high-water mark (VmHWM), what a memory
 * limit must hold. The long run drives the ServeLoop in this process, so a thousand cycles need no thousand-second
 * wait (interval 0): the RSS floor (lowest sample, every 20 ms) of each 100 cycles, and RSS and V8 heap after a forced
 * collection. A floor that rises is a leak; a sawtooth above a flat floor is the collector at work. The machine's
 * load average is printed beside them (a shared machine slows the cycles). Prints figures; never asserts.
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { SERVE_RENDERING } from '../src/render/serve-metrics.js'
import { Session } from '../src/commands/session.js'
import { ServeLoop } from '../src/app/serve.js'
import { selectRules, logRolesOf } from '../src/app/doctor.js'
import { benchCluster } from './cluster.js'
import { seedFleet } from './fleet.js'
import { refreshLiveness } from '../test/cluster/scenarios/index.js'
import { startServe } from '../test/helpers/serve.js'

const { values } = parseArgs({
  options: {
    fleet: { type: 'string', default: '500,5000' },
    cycles: { type: 'string', default: '1000' },
    'fleet-cycles': { type: 'string', default: '20' },
    'long-fleet': { type: 'string', default: '50' },
    dir: { type: 'string' },
    reuse: { type: 'boolean' },
    'serve-node-options': { type: 'string', default: '' },
    'malloc-arena-max': { type: 'string', default: '2' },
  },
})
const { ctx, env, stop } = await benchCluster(values.dir)
process.env.KUBECONFIG = env.KUBECONFIG
process.env.KUBECTL_CHAINNODE_STATE_DIR = env.KUBECTL_CHAINNODE_STATE_DIR
let failedScrapes = 0
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {})
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
/** The highest RSS seen while `sampling` runs (every 20 ms), and the lowest since the last floor() call. */
const rssSampler = () => {
  let peak = 0
  let low = Infinity
  const timer = setInterval(() => {
    const rss = process.memoryUsage.rss()
    peak = Math.max(peak, rss)
    low = Math.min(low, rss)
  }, 20)
  return {
    peak: () => peak,
    floor: () => {
      const floor = low
      low = Infinity
      return floor
    },
    stop: () => clearInterval(timer),
  }
}
const load = () => loadavg()[0].toFixed(1)
const memory = () => {
  gc()
  const { rss, heapUsed } = process.memoryUsage()
  return { rss, heapUsed }
}

/** A ServeLoop over one namespace, cycling back to back; `metric` reads a sample from its /metrics. */
async function serveOver(namespace: string) {
  const session = new Session('bench', process.cwd())
  const rules = selectRules({})
  const loop = new ServeLoop(session.reader, {
    listen: { host: '127.0.0.1', port: 0 },
    render: SERVE_RENDERING,
    intervalMs: 0,
    flags: { namespace, all: true, 'request-timeout': 30_000, tail: 500, 'log-sample': 3 },
    reads: { namespaceByDefault: true, logRoles: logRolesOf(rules) },
    rules,
    settings: {},
    probed: false,
    unreadyAfter: 3,
    log: () => {},
  })
  const { port } = await loop.start()
  void loop.run()
  return { ...scraper(`http://127.0.0.1:${port}`), stop: () => (loop.stop(), session.close()) }
}

/** Samples of serve's /metrics at `url`, and a wait for its nth cycle. */
function scraper(url: string) {
  const metric = async (name: string): Promise<number> => {
    let text: string
    try {
      text = await (await fetch(`${url}/metrics`)).text()
    } catch (error) {
      // A scrape that fails is a figure too: Prometheus would have missed it.
      failedScrapes++
      console.log(`a scrape failed: ${(error as Error).cause ?? error}`)
      return metric(name)
    }
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1])
  }
  const untilCycles = async (n: number) => {
    while ((await metric('chainnode_runs_total')) < n) await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return { metric, untilCycles }
}

/** The kernel's figures of a process: its RSS now and its high-water mark since it started (VmHWM), in bytes. */
function processMemory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024
  return { rss: kb('VmRSS'), peak: kb('VmHWM') }
}

const sizes = values.fleet.split(',').filter(Boolean).map(Number)
const cycles = Number(values.cycles)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Memory over many cycles back to back (run after the first fleet: the largest takes longest to seed). */
async function longRun() {
  const size = Number(values['long-fleet'])
  const ns = `bench-serve-${size}`
  if (!values.reuse) await seedFleet(ctx, ns, size, 'broken')
  const serve = await serveOver(ns)
  const sampler = rssSampler()
  const floors: number[] = []
  const samples: string[] = []
  for (let done = 100; done <= cycles; done += 100) {
    await serve.untilCycles(done)
    floors.push(sampler.floor())
    const { rss, heapUsed } = memory()
    samples.push(`${done}: floor ${mb(floors.at(-1)!)}, after GC ${mb(rss)}/${mb(heapUsed)}`)
  }
  sampler.stop()
  console.log(`${size} nodes over ${cycles} cycles (back to back), per 100 cycles RSS floor, then RSS/heap after a forced GC: ${samples.join('; ')}`)
  console.log(
    `${size} nodes: RSS floor ${mb(floors[0])} over the first 100 cycles, ${mb(floors.at(-1)!)} over the last 100 (${mb(Math.min(...floors))}-${mb(Math.max(...floors))}), peak ${mb(sampler.peak())}; load average ${load()}`,
  )
  serve.stop()
}

for (const [n, size] of sizes.entries()) {
  const ns = `bench-serve-${size}`
  if (!values.reuse) await seedFleet(ctx, ns, size, 'broken')
  await refreshLiveness(ctx)
  const nodeOptions = values['serve-node-options']
  const arenas = values['malloc-arena-max']
  const serve = await startServe(['--all', '-n', ns, '--no-probe', '--interval', '1s', '--request-timeout', '30s'], {
    ...env,
    ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
    // As deploy/serve/deployment.yaml runs it ('0': glibc's default, 8 arenas a core).
    ...(arenas !== '0' ? { MALLOC_ARENA_MAX: arenas } : {}),
  })
  const { metric, untilCycles } = scraper(serve.url)
  const started = processMemory(serve.child.pid!)
  const durations: number[] = []
  const requests: number[] = []
  const fleetCycles = Number(values['fleet-cycles'])
  for (let i = 1; i <= fleetCycles; i++) {
    await untilCycles(i)
    durations.push(await metric('chainnode_run_duration_seconds'))
    requests.push(await metric('chainnode_run_api_requests'))
  }
  const after = processMemory(serve.child.pid!)
  console.log(
    `${size} nodes: cycle ${median(durations).toFixed(2)} s (median of ${fleetCycles}; first ${durations[0].toFixed(2)} s), ` +
      `${median(requests)} API requests per cycle (first ${requests[0]}), peak RSS ${mb(after.peak)} over the ${fleetCycles} cycles ` +
      `(RSS ${mb(after.rss)} after them, ${mb(started.rss)} when it started listening; MALLOC_ARENA_MAX ${arenas === '0' ? 'unset' : arenas}${nodeOptions ? `; NODE_OPTIONS ${nodeOptions}` : ''}); load average ${load()}`,
  )
  await serve.stop()
  if (n === 0 && cycles > 0) await longRun()
}

if (failedScrapes) console.log(`${failedScrapes} scrapes of /metrics failed during the cycles`)
await stop()
