import { SERVE_RENDERING } from '../render/serve-metrics.js'
import { writeStderr } from '../util/output.js'
import { ExitCode, usageError } from '../util/errors.js'
import { parseDuration } from '../util/duration.js'
import { ServeLoop } from '../app/serve.js'
import type { Session } from './session.js'
import { diagnosisOptions } from '../app/diagnosis-options.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, NODE_ARG, SCOPE_FLAGS, SNAPSHOT_FLAGS, type FlagSpecs, type InputOf } from './flag-spec.js'
import { DIAGNOSIS_FLAGS } from './diagnosis-flags.js'

export const DEFAULT_LISTEN = ':9844'

/** serve's own flags: doctor's scope and every diagnosis flag of doctor's (one definition), where to listen and how often to look. */
export const SERVE_FLAGS = {
  ...SCOPE_FLAGS,
  listen: { type: 'string', description: 'address for /metrics, /healthz, /readyz and /report: [HOST]:PORT (no HOST: every address)', default: DEFAULT_LISTEN },
  interval: { type: 'string', description: 'time from the start of one diagnosis cycle to the start of the next (cycles never overlap)', default: '60s' },
  'unready-after': {
    type: 'integer',
    description: '/readyz answers 503, with the reason, once this many cycles in a row could not read the API server (0: never)',
    default: 3,
    min: 0,
  },
  tail: SNAPSHOT_FLAGS.tail,
  ...DIAGNOSIS_FLAGS,
} satisfies FlagSpecs

export const SERVE_COMMAND = defineCommand({
  summary: 'Run doctor every interval and serve the findings and chain readings to Prometheus',
  description: `A long-running process: every --interval it reads the nodes in scope as doctor does (probes included) and answers
  /metrics  Prometheus text format: chainnode_finding{namespace,chainnode,rule,severity}, chainnode_height, chainnode_block_age_seconds, chainnode_peers, chainnode_catching_up, chainnode_probe_success, chainnode_validator_jailed, and the exporter's own health
  /healthz, /readyz (ready once the first cycle has finished; 503 with the reason after --unready-after cycles in a row that could not read the API server)
  /report   the latest doctor report as JSON (the schema of doctor -o json)

A cycle never overlaps the next. A cycle that cannot read the API server keeps the last readings (chainnode_readings_timestamp_seconds says how old they are) and sets chainnode_last_run_success to 0; chainnode_source_up and chainnode_collection_errors say which source (apiserver, operator_logs, chain_probe, signing) failed. SIGTERM ends it at once.
Without NAME, --set or -A it watches the namespace. Alerts to load into Prometheus: deploy/prometheus/alerts.yaml; in-cluster manifests: deploy/serve/.`,
  examples: [
    '<%= config.bin %> serve -A',
    '<%= config.bin %> serve -n cosmos --listen 127.0.0.1:9844 --interval 30s',
    '<%= config.bin %> serve --set cosmoshub -n cosmos --no-probe',
  ],
  args: NODE_ARG,
  flags: { ...GLOBAL_FLAGS, ...KUBE_FLAGS, ...SERVE_FLAGS },
})

export type ServeInput = InputOf<typeof SERVE_COMMAND>

/** `:9844`, `127.0.0.1:9844`, `[::1]:9844` as a host (undefined: every address) and a port. */
export function parseListen(text: string): { host?: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim())
  const port = Number(match?.[3])
  if (!match || port > 65535) throw usageError(`--listen "${text}" is not [HOST]:PORT`, 'e.g. --listen :9844 or --listen 127.0.0.1:9844')
  const host = match[1] ?? match[2]
  return host ? { host, port } : { port }
}

/** Diagnose every interval and serve the findings and readings until SIGTERM or Ctrl-C. */
export async function runServe(input: ServeInput, session: Session): Promise<ExitCode> {
  const listen = parseListen(input.listen)
  const intervalMs = parseDuration(input.interval, '--interval')
  if (intervalMs < 1000) throw usageError(`--interval "${input.interval}" is shorter than a second`, 'e.g. --interval 60s')
  const { rules, settings, probe, chainProbe, logRoles, probed } = diagnosisOptions(input)
  const log = (line: string) => writeStderr(`${new Date().toISOString()} ${line}\n`)
  const loop = new ServeLoop(session.reader, {
    listen,
    render: SERVE_RENDERING,
    intervalMs,
    // Secrets stay masked: /report is served over the network.
    flags: { ...input, 'no-redact': false },
    reads: { namespaceByDefault: true, probe, chainProbe, logRoles },
    rules,
    settings,
    probed,
    unreadyAfter: input['unready-after'],
    log,
  })
  const { host, port } = await loop.start()
  // Ours is the first listener: it ends the process before the port-forward cleanup's (exit 143) runs, and
  // process.exit runs that cleanup anyway ('exit'), so a stop in the middle of a cycle leaves nothing behind.
  const stop = (signal: string) => {
    log(`${signal}: stopping`)
    loop.stop()
    process.exit(ExitCode.Clean)
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
  log(`serving http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics, a diagnosis every ${input.interval}`)
  await loop.run()
  return ExitCode.Clean
}
