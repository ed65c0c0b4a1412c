import { existsSync, readFileSync, promises as fsp } from 'node:fs'
import path from 'node:path'
import type { Snapshot } from '../snapshot/types.js'
import { writeFileAtomic } from '../util/fs-atomic.js'
import { stateDir } from '../util/state-dir.js'

/**
 * Where each cluster's operator manager ran at its last read, kept in the state folder: the next read asks for
 * that log with its first requests instead of a round trip later (cluster/collect.ts uses it only if the Pod is
 * still the manager). Any read of the cluster the user can make anyway; nothing here changes what is shown.
 */
type Remembered = Record<string, { namespace: string; pod: string }[]>

const file = (env = process.env) => path.join(stateDir(env), 'operator-pods.json')

function load(): Remembered {
  try {
    return existsSync(file()) ? (JSON.parse(readFileSync(file(), 'utf8')) as Remembered) : {}
  } catch {
    // A damaged file only costs the head start.
    return {}
  }
}

export function lastOperatorPods(server: string): { namespace: string; pod: string }[] {
  const pods = load()[server]
  return Array.isArray(pods) ? pods.filter((p) => typeof p?.namespace === 'string' && typeof p?.pod === 'string') : []
}

/** Remember the manager Pods whose logs this snapshot read; written only when they changed. */
export async function rememberOperatorPods(snapshot: Snapshot): Promise<void> {
  const pods = snapshot.logs.filter((log) => log.container === 'manager' && !log.error).map((log) => ({ namespace: log.namespace, pod: log.pod }))
  const all = load()
  if (JSON.stringify(all[snapshot.source.server] ?? []) === JSON.stringify(pods)) return
  all[snapshot.source.server] = pods
  try {
    await fsp.mkdir(path.dirname(file()), { recursive: true })
    await writeFileAtomic(file(), (tmp) => fsp.writeFile(tmp, `${JSON.stringify(all)}\n`))
  } catch {
    // A read-only state folder only costs the head start next time.
  }
}
