import { Flags } from '@oclif/core'
import type { LogMode } from '../cluster/collect.js'
import { usageError } from '../errors.js'
import { recordHistory } from '../history/store.js'
import { bundleSnapshot, liveSnapshot } from '../services/snapshots.js'
import type { ProbeRecord, Scope, Snapshot } from '../snapshot/types.js'
import { progress } from '../ui/progress.js'
import { KubeCommand, type Connection, type KubeFlags } from './kube-command.js'
import { resolveScope, type ScopeInput } from './scope.js'

export interface SnapshotFlags extends KubeFlags, ScopeInput {
  bundle?: string
  'no-redact'?: boolean
  tail?: number
}

/** Commands that read nodes: live from one or more clusters, or offline from a bundle. */
export abstract class SnapshotCommand extends KubeCommand {
  static snapshotFlags = {
    bundle: Flags.string({ description: 'read from a bundle written by `chainnode collect` instead of the cluster' }),
    'no-redact': Flags.boolean({ description: 'do not mask tokens, keys and mnemonics (they are masked by default)' }),
    tail: Flags.integer({ description: 'log lines to read per container', default: 500, min: 1 }),
  }

  /** One snapshot per context (--context a,b reads several clusters), or the bundle's. */
  protected async snapshots(
    flags: SnapshotFlags,
    nameRequired = false,
    logs?: LogMode,
    probe?: (connection: Connection, snapshot: Snapshot) => Promise<ProbeRecord[]>,
  ): Promise<Snapshot[]> {
    const redact = !flags['no-redact']
    if (flags.bundle) {
      const anything = !flags.name && !flags.set && !flags.all && !flags['all-namespaces']
      const scope: Scope = anything ? { kind: 'all' } : resolveScope(flags, flags.namespace, nameRequired)
      const snapshot = await bundleSnapshot(flags.bundle, { scope, redact })
      if (scope.kind === 'node' && !snapshot.objects.some((o) => o.kind === 'ChainNode' && o.metadata.name === scope.name)) {
        throw usageError(
          `chainnode "${scope.name}" is not in bundle ${flags.bundle}`,
          `it holds: ${snapshot.chainNodeRows.map((r) => `${r.namespace}/${r.name}`).join(', ') || 'no nodes'}`,
        )
      }
      return [snapshot]
    }
    const contexts = flags.context
      ? flags.context
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean)
      : [undefined]
    const cliVersion = this.config.version
    const spinner = await progress('reading the cluster')
    try {
      return await Promise.all(
        contexts.map(async (contextName) => {
          const connection = await this.connect(flags, contextName)
          const scope = resolveScope(flags, connection.context.namespace, nameRequired)
          const snapshot = await liveSnapshot(connection, { scope, cliVersion, redact, tailLines: flags.tail ?? 500, maxLogBytes: 2 * 1024 * 1024, logs })
          this.debugLine(`${connection.context.contextName}: ${snapshot.stats.requests} API requests in ${snapshot.stats.durationMs} ms`)
          if (probe) snapshot.probes.push(...(await probe(connection, snapshot)))
          return recordHistory(snapshot)
        }),
      )
    } finally {
      spinner.stop()
    }
  }
}
