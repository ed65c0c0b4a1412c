/**
 * serve's cost on a fleet: requests per cycle, cycle time and memory for --fleet sizes (default 500 and 5000) over
 * --fleet-cycles cycles each (default 20), and memory over --cycles back-to-back cycles (default 1000) on a fleet of
 * --long-fleet nodes (default 50), to show it does not grow.
 *   node --expose-gc --import tsx bench/serve.ts [--fleet 500,5000] [--fleet-cycles 20] [--cycles 1000] [--long-fleet 50] [--dir .cluster] [--reuse]
 * Runs the ServeLoop in this process (so a thousand cycles need no thousand-second wait: interval 0) against
 * the cluster in --dir (npm run cluster:up) or a throw-away one; fleets are seeded by bench/fleet.ts, 1 in 20
 * nodes broken, without live chains, so the cycles run with --no-probe (a probe is one port-forward per node).
 * Memory: this process's peak RSS while the cycles run (sampled every 20 ms: what a container limit must hold), its
 * RSS and V8 heap after a forced collection, and over the long run the RSS floor (lowest sample) of each 100 cycles:
 * a floor that rises is a leak, a sawtooth above a flat floor is the collector at work. The machine's load average is
 * printed beside them (a shared machine slows the cycles). Prints figures; never asserts.
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { Session } from '../src/app/session.js'
import { ServeLoop } from '../src/app/serve.js'
import { selectRules, logRolesOf } from '../src/app/doctor.js'
import { benchCluster } from './cluster.js'
import { seedFleet } from './fleet.js'
import { refreshLiveness } from '../test/cluster/scenarios/index.js'

const { values } = parseArgs({
  options: {
    fleet: { type: 'string', default: '500,5000' },
    cycles: { type: 'string', default: '1000' },
    'fleet-cycles': { type: 'string', default: '20' },
    'long-fleet': { type: 'string', default: '50' },
    dir: { type: 'string' },
    reuse: { type: 'boolean' },
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
  const loop = new ServeLoop(session, {
    listen: { host: '127.0.0.1', port: 0 },
    intervalMs: 0,
    flags: { namespace, all: true, 'request-timeout': '30s', tail: 500, 'log-sample': 3 },
    reads: { namespaceByDefault: true, logRoles: logRolesOf(rules) },
    rules,
    settings: {},
    probed: false,
    unreadyAfter: 3,
    log: () => {},
  })
  const { port } = await loop.start()
  const metric = async (name: string): Promise<number> => {
    let text: string
    try {
      text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
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
  void loop.run()
  return { metric, untilCycles, stop: () => (loop.stop(), session.close()) }
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
  const before = memory()
  const sampler = rssSampler()
  const serve = await serveOver(ns)
  const durations: number[] = []
  const requests: number[] = []
  const fleetCycles = Number(values['fleet-cycles'])
  for (let i = 1; i <= fleetCycles; i++) {
    await serve.untilCycles(i)
    durations.push(await serve.metric('chainnode_run_duration_seconds'))
    requests.push(await serve.metric('chainnode_run_api_requests'))
  }
  sampler.stop()
  const after = memory()
  console.log(
    `${size} nodes: cycle ${median(durations).toFixed(2)} s (median of ${fleetCycles}; first ${durations[0].toFixed(2)} s), ` +
      `${median(requests)} API requests per cycle (first ${requests[0]}), peak RSS ${mb(sampler.peak())} over the ${fleetCycles} cycles, ` +
      `after a forced GC ${mb(after.rss)} (heap ${mb(after.heapUsed)}; before the first cycle ${mb(before.rss)}); load average ${load()}`,
  )
  serve.stop()
  if (n === 0 && cycles > 0) await longRun()
}

if (failedScrapes) console.log(`${failedScrapes} scrapes of /metrics failed during the cycles`)
await stop()
