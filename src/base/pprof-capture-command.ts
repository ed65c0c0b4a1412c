import { Args, Flags } from '@oclif/core'
import path from 'node:path'
import { collectSnapshot } from '../cluster/collect.js'
import { usageError } from '../errors.js'
import { renderFinding } from '../render/doctor-text.js'
import { diagnose, selectRules } from '../services/doctor.js'
import { captureProfile } from '../cluster/profile-capture.js'
import { CaptureError, defaultProfileName, type ProfileKindName } from '../pprof/capture.js'
import { SENSITIVE_NOTICE, topReport } from '../services/pprof-report.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { countdown } from '../ui/progress.js'
import { KubeCommand, type Connection, type KubeFlags } from './kube-command.js'

/** The longest capture we accept: the request timeout follows it, and a forgotten run must end. */
export const MAX_SECONDS = 600

export interface CaptureFlags extends KubeFlags {
  output?: string
  'local-port'?: number
  seconds?: number
  top: number
}

/** pprof heap|profile|trace: port-forward to node-utils' 127.0.0.1:6666, save the profile, summarise it. */
export abstract class PprofCaptureCommand extends KubeCommand {
  static captureArgs = { name: Args.string({ description: 'ChainNode name', required: true }) }
  static captureFlags = {
    output: Flags.string({ char: 'o', description: 'file to write (default <namespace>_<pod>_<kind>_<time>)' }),
    'local-port': Flags.integer({ description: 'local port for the port-forward (default: a free one)', min: 1, max: 65535 }),
    top: Flags.integer({ description: 'rows of the top table printed after a heap or CPU capture', default: 10, min: 1 }),
  }

  protected async capture(kind: ProfileKindName, name: string, flags: CaptureFlags): Promise<void> {
    await this.setupOutput(flags as never)
    if (flags.seconds !== undefined && (flags.seconds < 1 || flags.seconds > MAX_SECONDS)) {
      throw usageError(`--seconds ${flags.seconds} is out of range`, `give 1 to ${MAX_SECONDS} seconds`)
    }
    const connection = await this.connect(flags)
    const namespace = connection.context.namespace
    const pod = await this.nodePod(connection, namespace, name)
    const file = flags.output ?? defaultProfileName(namespace, pod, kind)
    process.stderr.write(`${SENSITIVE_NOTICE}\n`)
    const timer = kind === 'heap' ? undefined : await countdown(`capturing ${kind} from ${namespace}/${pod}`, flags.seconds ?? 0)
    try {
      const { bytes } = await captureProfile({ connection, namespace, pod, kind, seconds: flags.seconds, localPort: flags['local-port'], file })
      timer?.stop()
      process.stderr.write(`saved ${path.resolve(file)} (${bytes} bytes)\n`)
      this.print(kind === 'trace' ? `open it with: go tool trace ${file}` : await topReport({ file, rows: flags.top }))
    } catch (error) {
      timer?.stop()
      // Something else on 6666 answers with a non-profile, or nothing answers: either way, say why if the cluster shows it.
      if (error instanceof CaptureError && (error.kind === 'unreachable' || error.kind === 'not-profile'))
        await this.explainUnavailable(connection, namespace, name, pod, error)
      throw error
    }
  }

  private async nodePod(connection: Connection, namespace: string, name: string): Promise<string> {
    const snapshot = await collectSnapshot(connection.client, {
      scope: { kind: 'node', namespace, name },
      cliVersion: this.config.version,
      contextName: connection.context.contextName,
      logs: { mode: 'none', tailLines: 1, maxBytes: 1 },
    })
    const index = new SnapshotIndex(snapshot)
    const pod = index.podOf(index.chainNodes()[0])
    if (!pod) throw usageError(`chainnode "${name}" has no Pod to profile`, `see chainnode describe ${name} -n ${namespace}`)
    return pod.metadata.name
  }

  /** Nothing answered on 6666: say why, using the profiling-unavailable rule on fresh evidence. */
  private async explainUnavailable(connection: Connection, namespace: string, name: string, pod: string, error: CaptureError): Promise<void> {
    const snapshot = await collectSnapshot(connection.client, {
      scope: { kind: 'node', namespace, name },
      cliVersion: this.config.version,
      contextName: connection.context.contextName,
      logs: { mode: 'all', tailLines: 500, maxBytes: 1 << 20 },
    })
    snapshot.probes.push({ kind: 'pprof', namespace, pod, target: `pod/${pod}:6666`, ok: false, detail: error.message, at: new Date().toISOString() })
    const result = diagnose([snapshot], selectRules({ only: ['profiling-unavailable'] }))
    for (const finding of result.clusters[0].report.findings) process.stderr.write(`${renderFinding(finding, this.palette).join('\n')}\n`)
  }
}
