import path from 'node:path'
import { ROOT } from './cli.js'
import { bundleFile, exampleBundleNames } from './fixtures.js'

/** Golden outputs: test/golden/<bundle>/<command>.<ext>, refreshed by `npm run golden:update`. */
export const GOLDEN_DIR = path.join(ROOT, 'test', 'golden')

export interface GoldenCase {
  /** Relative to GOLDEN_DIR. */
  file: string
  /** The command line, run as written from the repository root on the shipped bundle. */
  args: string[]
  /** A terminal this many columns wide (KUBECTL_CHAINNODE_COLUMNS); absent: piped. */
  columns?: number
  /** What the command says on stderr (status's notes and banners), relative to GOLDEN_DIR; absent: stderr is empty. */
  stderrFile?: string
}

/** status writes its notes and banners to stderr (stdout holds only the table): its cases pin both. */
const withStderr = (c: GoldenCase): GoldenCase => ({ ...c, stderrFile: c.file.replace(/\.txt$/, '.stderr.txt') })

/** The widths a reader's terminal has: the narrowest we support, the old default, a wide screen; and piped (the cases above). */
export const WIDTHS = [80, 120, 200] as const

/** doctor, status and timeline as they look on terminals of each width (test/golden/width/): prose wraps, tables are whole. */
function widthCases(): GoldenCase[] {
  const doctor = 'examples/bundles/signer-discovery-timeout.tgz'
  const fleet = 'examples/bundles/healthy.tgz'
  return WIDTHS.flatMap((columns) => [
    { file: `width/doctor.signer-discovery-timeout.${columns}.txt`, args: ['doctor', '--bundle', doctor, '--no-color'], columns },
    { file: `width/status.healthy.${columns}.txt`, args: ['status', '--bundle', fleet], columns },
    { file: `width/status-wide.healthy.${columns}.txt`, args: ['status', '--bundle', fleet, '-o', 'wide'], columns },
    // The notes around the table: operator-wide trouble above it, the operator's latest error and unknown values below.
    ...['webhook-certificates', 'reconcile-failing'].map((name) =>
      withStderr({
        file: `width/status.${name}.${columns}.txt`,
        args: ['status', '--bundle', `examples/bundles/${name}.tgz`],
        columns,
      }),
    ),
    { file: `width/timeline.signer-discovery-timeout.${columns}.txt`, args: ['timeline', '--all', '--utc', '--bundle', doctor], columns },
  ])
}

/**
 * For every example bundle: doctor in each format, status, events, describe of each node, and the timeline of all its
 * nodes in each format. Offline
 * every age and time is counted from the bundle's collection time, so the outputs do not move with the clock.
 */
export function goldenCases(): GoldenCase[] {
  return [...bundleCases(), ...widthCases(), ...fleetCases()]
}

/**
 * The test cluster's whole scenario fleet (23 scenarios, 31 ChainNodes), collected with `collect -A` a few minutes
 * after `npm run cluster:up -- --scenarios`: doctor -A's first screen at 80 and 120 columns and piped.
 */
export const FLEET_BUNDLE = 'test/fixtures/scenario-fleet.tgz'

function fleetCases(): GoldenCase[] {
  return [undefined, 80, 120].map((columns) => ({
    file: `fleet/doctor.${columns ?? 'piped'}.txt`,
    args: ['doctor', '-A', '--bundle', FLEET_BUNDLE, '--no-color'],
    ...(columns ? { columns } : {}),
  }))
}

/** The file that holds each case's command line and exit code, one line each, in the order of goldenCases(). */
export const GOLDEN_COMMANDS = 'COMMANDS.txt'

/** A case as a reader would type it: the terminal width as the environment variable the CLI reads, then the command line. */
export function commandLineOf(c: Pick<GoldenCase, 'args' | 'columns'>): string {
  const width = c.columns === undefined ? '' : `KUBECTL_CHAINNODE_COLUMNS=${c.columns} `
  return `${width}chainnode ${c.args.join(' ')}`
}

/** The environment a case runs in: a terminal width, or none (piped); local times in one fixed zone, so a report without --utc reads the same on every machine. */
export const goldenEnv = (c: Pick<GoldenCase, 'columns'>) => ({ KUBECTL_CHAINNODE_COLUMNS: c.columns === undefined ? '' : String(c.columns), TZ: 'UTC' })

function bundleCases(): GoldenCase[] {
  return exampleBundleNames().flatMap((name) => {
    const bundle = `examples/bundles/${name}.tgz`
    const manifest = JSON.parse(bundleFile(name, 'manifest.json')) as { collected: { chainNodes: string[] } }
    return [
      { file: `${name}/doctor.txt`, args: ['doctor', '--bundle', bundle, '--no-color'] },
      { file: `${name}/doctor.md`, args: ['doctor', '--bundle', bundle, '-o', 'markdown'] },
      { file: `${name}/doctor.json`, args: ['doctor', '--bundle', bundle, '-o', 'json'] },
      { file: `${name}/doctor.junit.xml`, args: ['doctor', '--bundle', bundle, '-o', 'junit'] },
      withStderr({ file: `${name}/status.txt`, args: ['status', '--bundle', bundle] }),
      { file: `${name}/events.txt`, args: ['events', '--bundle', bundle] },
      { file: `timeline/${name}.txt`, args: ['timeline', '--all', '--utc', '--bundle', bundle, '--no-color'] },
      { file: `timeline/${name}.md`, args: ['timeline', '--all', '--utc', '--bundle', bundle, '-o', 'markdown'] },
      { file: `timeline/${name}.json`, args: ['timeline', '--all', '--utc', '--bundle', bundle, '-o', 'json'] },
      ...manifest.collected.chainNodes.map((node) => {
        const [namespace, nodeName] = node.split('/')
        return { file: `${name}/describe.${nodeName}.txt`, args: ['describe', nodeName, '-n', namespace, '--bundle', bundle] }
      }),
    ]
  })
}
