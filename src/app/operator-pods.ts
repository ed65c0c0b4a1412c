import path from 'node:path'
import type { Scope, Snapshot } from '../snapshot/types.js'
import { stateDir } from '../util/state-dir.js'
import { readStateFile, writeStateFile } from '../util/state-file.js'

/**
 * Where each cluster's operator manager ran at its last read, kept in the state directory: the next read asks
 * for that log with its first requests instead of a round trip later (cluster/collect.ts uses it only if the
 * Pod is still the manager). Nothing here changes what is shown.
 */
export type OperatorPods = { namespace: string; pod: string }[]

const file = () => path.join(stateDir(), 'operator-pods.json')

/**
 * Kept per cluster and namespace (or "*" for -A): a run over every namespace reads every release's manager,
 * and the next run of one namespace must not ask for all of those logs again.
 */
const keyOf = (server: string, scope: Scope) => `${server} ${scope.kind === 'all' ? '*' : (scope.namespace ?? '')}`

export function lastOperatorPods(server: string, scope: Scope): OperatorPods {
  const pods = readStateFile<Record<string, OperatorPods>>(file(), {})[keyOf(server, scope)]
  return Array.isArray(pods) ? pods.filter((p) => typeof p?.namespace === 'string' && typeof p?.pod === 'string') : []
}

/** Remember the manager Pods whose logs this snapshot read, when they differ from `known` (what the read started from). */
export async function rememberOperatorPods(snapshot: Snapshot, known: OperatorPods): Promise<void> {
  const pods = snapshot.logs.filter((log) => log.container === 'manager' && !log.error).map((log) => ({ namespace: log.namespace, pod: log.pod }))
  if (JSON.stringify(pods) === JSON.stringify(known)) return
  const all = readStateFile<Record<string, OperatorPods>>(file(), {})
  await writeStateFile(file(), { ...all, [keyOf(snapshot.source.server, snapshot.scope)]: pods })
}
