import { close, constants, existsSync, fstat, open, read, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { usageError } from '../util/errors.js'
import { isJsonObject, textAt, valueAt } from '../util/json-path.js'

/** The parts of a kubeconfig we use, with file paths already resolved against their file. */
export interface NamedCluster {
  server: string
  certificateAuthority?: string
  certificateAuthorityData?: string
  insecureSkipTlsVerify?: boolean
  tlsServerName?: string
}
export interface NamedUser {
  token?: string
  tokenFile?: string
  clientCertificate?: string
  clientCertificateData?: string
  clientKey?: string
  clientKeyData?: string
  username?: string
  password?: string
  exec?: ExecConfig
  authProvider?: { name: string; config?: Record<string, string> }
}
export interface ExecConfig {
  command: string
  args?: string[]
  env?: { name: string; value: string }[]
  apiVersion?: string
  /** Directory of the kubeconfig that declared it: relative commands resolve there, as kubectl does. */
  baseDir: string
}
export interface NamedContext {
  cluster: string
  user: string
  namespace?: string
}
export interface MergedKubeconfig {
  currentContext?: string
  clusters: Map<string, NamedCluster>
  users: Map<string, NamedUser>
  contexts: Map<string, NamedContext>
  files: string[]
}

/** What a command needs to reach one cluster. */
export interface ResolvedContext {
  contextName: string
  cluster: NamedCluster
  user: NamedUser
  namespace: string
  inCluster: boolean
}

export interface KubeconfigOptions {
  kubeconfig?: string
  context?: string
  namespace?: string
  /** When reading the kubeconfig must have ended (the run's --timeout): a pipe that never closes must not hang the run. */
  deadlineAt?: number
  env?: NodeJS.ProcessEnv
}

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount'

/**
 * Which files to read, in kubectl's order: --kubeconfig alone, else every KUBECONFIG entry, else ~/.kube/config.
 */
export function kubeconfigFiles(opts: KubeconfigOptions): string[] {
  const env = opts.env ?? process.env
  if (opts.kubeconfig) {
    if (!existsSync(opts.kubeconfig)) {
      throw usageError(`kubeconfig ${opts.kubeconfig} does not exist`, 'pass an existing file to --kubeconfig')
    }
    return [opts.kubeconfig]
  }
  if (env.KUBECONFIG) {
    // kubectl skips missing entries of KUBECONFIG silently; so do we.
    return env.KUBECONFIG.split(path.delimiter).filter((file) => file && existsSync(file))
  }
  const home = env.HOME ?? homedir()
  const fallback = path.join(home, '.kube', 'config')
  return existsSync(fallback) ? [fallback] : []
}

/**
 * Merge the way kubectl does: the first file that defines a cluster, user or context name wins,
 * and the first file that sets current-context wins. (@kubernetes/client-node lets later files override.)
 */
export async function loadKubeconfig(files: string[], deadlineAt = Date.now() + KUBECONFIG_READ_MS): Promise<MergedKubeconfig> {
  const { load } = await import('js-yaml')
  const merged: MergedKubeconfig = { clusters: new Map(), users: new Map(), contexts: new Map(), files }
  for (const file of files) {
    let doc: unknown
    const text = await readKubeconfigFile(file, deadlineAt)
    try {
      doc = load(text)
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
      throw usageError(`kubeconfig ${file} is not valid YAML: ${reason}`, 'fix the file or point --kubeconfig elsewhere')
    }
    if (doc === null || doc === undefined) continue
    if (typeof doc !== 'object' || Array.isArray(doc)) {
      throw usageError(`kubeconfig ${file} is not a kubeconfig (expected a mapping)`, 'point --kubeconfig at a kubeconfig file')
    }
    mergeFile(merged, doc as Record<string, unknown>, path.dirname(path.resolve(file)), file)
  }
  return merged
}

/** A kubeconfig is a few kilobytes; one with thousands of clusters, a few megabytes. */
export const KUBECONFIG_MAX_BYTES = 16 * 1024 * 1024
/** How long a kubeconfig that is a pipe (`--kubeconfig <(vault ...)`) may take to close, without a --timeout. */
const KUBECONFIG_READ_MS = 30_000

// The callback API, promisified: node:fs/promises (its FileHandle and streams) costs a short command ~10 ms to load
// before its first request, and nothing else on that path needs it.
const openFile = promisify(open)
const statFile = promisify(fstat)
const readFile = promisify(read)
const closeFile = promisify(close)

/**
 * A kubeconfig read within a size cap and a deadline. It may be a pipe (process substitution), so it is not refused
 * for not being a regular file; it is opened without blocking (a FIFO with no writer would hold open() forever)
 * and read until its end, the cap (/dev/zero never ends) or the deadline (a writer that never writes).
 */
async function readKubeconfigFile(file: string, deadlineAt: number): Promise<string> {
  let fd: number
  try {
    fd = await openFile(file, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    throw usageError(
      `cannot read kubeconfig ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'point --kubeconfig or KUBECONFIG at a readable file',
    )
  }
  try {
    if ((await statFile(fd)).isDirectory()) throw usageError(`kubeconfig ${file} is a directory`, 'point --kubeconfig or KUBECONFIG at a file')
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 * 1024)
      let bytesRead: number
      try {
        ;({ bytesRead } = await readFile(fd, chunk, 0, chunk.length, null))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN')
          throw usageError(`cannot read kubeconfig ${file}`, 'point --kubeconfig or KUBECONFIG at a readable file')
        if (Date.now() >= deadlineAt) {
          throw usageError(
            `kubeconfig ${file} did not end in time (a pipe or device that is still open?)`,
            'point --kubeconfig or KUBECONFIG at a regular file',
          )
        }
        await new Promise((resolve) => setTimeout(resolve, 20))
        continue
      }
      if (bytesRead === 0) break
      total += bytesRead
      if (total > KUBECONFIG_MAX_BYTES) {
        throw usageError(
          `kubeconfig ${file} is larger than ${KUBECONFIG_MAX_BYTES / 1024 / 1024} MiB (a device or a wrong file?)`,
          'point --kubeconfig or KUBECONFIG at a kubeconfig file',
        )
      }
      chunks.push(chunk.subarray(0, bytesRead))
      if (Date.now() >= deadlineAt) throw usageError(`kubeconfig ${file} did not end in time`, 'point --kubeconfig or KUBECONFIG at a regular file')
    }
    return Buffer.concat(chunks, total).toString('utf8')
  } finally {
    await closeFile(fd)
  }
}

function mergeFile(merged: MergedKubeconfig, doc: Record<string, unknown>, baseDir: string, file: string): void {
  const current = doc['current-context']
  if (merged.currentContext === undefined && typeof current === 'string' && current !== '') merged.currentContext = current
  for (const entry of namedEntries(doc.clusters, 'cluster', file)) {
    if (merged.clusters.has(entry.name)) continue
    const c = entry.body
    merged.clusters.set(entry.name, {
      server: str(c.server) ?? '',
      certificateAuthority: resolvePath(baseDir, str(c['certificate-authority'])),
      certificateAuthorityData: str(c['certificate-authority-data']),
      insecureSkipTlsVerify: c['insecure-skip-tls-verify'] === true,
      tlsServerName: str(c['tls-server-name']),
    })
  }
  for (const entry of namedEntries(doc.users, 'user', file)) {
    if (merged.users.has(entry.name)) continue
    const u = entry.body
    const exec = u.exec as Record<string, unknown> | undefined
    const provider = u['auth-provider'] as Record<string, unknown> | undefined
    merged.users.set(entry.name, {
      token: str(u.token),
      tokenFile: resolvePath(baseDir, str(u.tokenFile)),
      clientCertificate: resolvePath(baseDir, str(u['client-certificate'])),
      clientCertificateData: str(u['client-certificate-data']),
      clientKey: resolvePath(baseDir, str(u['client-key'])),
      clientKeyData: str(u['client-key-data']),
      username: str(u.username),
      password: str(u.password),
      exec: exec
        ? {
            command: str(exec.command) ?? '',
            args: Array.isArray(exec.args) ? exec.args.map(String) : undefined,
            // Only entries with a text name and value: they become the plugin's environment.
            env: Array.isArray(exec.env)
              ? exec.env.flatMap((entry) => {
                  const [name, value] = [textAt(entry, 'name'), textAt(entry, 'value')]
                  return name !== undefined && value !== undefined ? [{ name, value }] : []
                })
              : undefined,
            apiVersion: str(exec.apiVersion),
            baseDir,
          }
        : undefined,
      authProvider: provider ? { name: str(provider.name) ?? '', config: provider.config as Record<string, string> } : undefined,
    })
  }
  for (const entry of namedEntries(doc.contexts, 'context', file)) {
    if (merged.contexts.has(entry.name)) continue
    const c = entry.body
    merged.contexts.set(entry.name, { cluster: str(c.cluster) ?? '', user: str(c.user) ?? '', namespace: str(c.namespace) })
  }
}

function namedEntries(list: unknown, key: string, file: string): { name: string; body: Record<string, unknown> }[] {
  if (list === undefined || list === null) return []
  if (!Array.isArray(list)) throw usageError(`kubeconfig ${file}: "${key}s" must be a list`, 'fix the kubeconfig file')
  return list.flatMap((item) => {
    const name = textAt(item, 'name')
    const body = valueAt(item, key)
    return name !== undefined ? [{ name, body: isJsonObject(body) ? body : {} }] : []
  })
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

function resolvePath(baseDir: string, file: string | undefined): string | undefined {
  if (!file) return undefined
  return path.isAbsolute(file) ? file : path.join(baseDir, file)
}

/** Pick the context to use; fall back to the in-cluster service account when there is no kubeconfig at all. */
export async function resolveContext(opts: KubeconfigOptions): Promise<ResolvedContext> {
  const env = opts.env ?? process.env
  const files = kubeconfigFiles(opts)
  if (files.length === 0) {
    const inCluster = inClusterContext(env, opts.namespace)
    if (inCluster) return inCluster
    const named = (env.KUBECONFIG ?? '').split(path.delimiter).filter(Boolean)
    if (named.length > 0)
      throw usageError(`kubeconfig ${named.join(', ')} (from KUBECONFIG) does not exist`, 'point KUBECONFIG at an existing file, or pass --kubeconfig FILE')
    throw usageError('no kubeconfig found (KUBECONFIG is unset and ~/.kube/config does not exist)', 'pass --kubeconfig FILE or set KUBECONFIG')
  }
  const merged = await loadKubeconfig(files, opts.deadlineAt)
  const contextName = opts.context ?? merged.currentContext
  if (!contextName) throw usageError('the kubeconfig sets no current-context', 'pass --context NAME')
  const context = merged.contexts.get(contextName)
  if (!context) {
    const known = [...merged.contexts.keys()].join(', ') || 'none'
    throw usageError(`context "${contextName}" is not in the kubeconfig (known: ${known})`, 'pick one with --context')
  }
  const cluster = merged.clusters.get(context.cluster)
  if (!cluster || !cluster.server) {
    throw usageError(`context "${contextName}" names cluster "${context.cluster}", which has no server in the kubeconfig`, 'fix the kubeconfig')
  }
  const user = merged.users.get(context.user) ?? {}
  return { contextName, cluster, user, namespace: opts.namespace ?? context.namespace ?? 'default', inCluster: false }
}

function inClusterContext(env: NodeJS.ProcessEnv, namespace?: string): ResolvedContext | undefined {
  const host = env.KUBERNETES_SERVICE_HOST
  const port = env.KUBERNETES_SERVICE_PORT
  // The directory can be moved for tests of the in-cluster path; in a Pod it is always the standard one.
  const dir = env.KUBECTL_CHAINNODE_SERVICEACCOUNT_DIR ?? SERVICE_ACCOUNT_DIR
  if (!host || !port || !existsSync(path.join(dir, 'token'))) return undefined
  const hostPart = host.includes(':') ? `[${host}]` : host
  const nsFile = path.join(dir, 'namespace')
  return {
    contextName: 'in-cluster',
    cluster: { server: `https://${hostPart}:${port}`, certificateAuthority: path.join(dir, 'ca.crt') },
    user: { tokenFile: path.join(dir, 'token') },
    namespace: namespace ?? (existsSync(nsFile) ? readFileSync(nsFile, 'utf8').trim() : 'default'),
    inCluster: true,
  }
}
