import { readFileSync } from 'node:fs'
import path from 'node:path'
import { incompleteError, usageError } from '../util/errors.js'
import type { ExecConfig, ResolvedContext } from './kubeconfig.js'
import { textAt } from '../util/json-path.js'

/** TLS material and headers for one cluster, independent of the HTTP client that uses them. */
export interface Credentials {
  ca?: string
  cert?: string
  key?: string
  rejectUnauthorized: boolean
  servername?: string
  headers: Record<string, string>
}

const fromDataOrFile = (data?: string, file?: string): string | undefined => {
  if (data) return Buffer.from(data, 'base64').toString('utf8')
  if (file) {
    try {
      return readFileSync(file, 'utf8')
    } catch {
      throw usageError(`cannot read ${file} named in the kubeconfig`, 'fix the path in the kubeconfig')
    }
  }
  return undefined
}

export async function credentialsFor(ctx: ResolvedContext): Promise<Credentials> {
  const { cluster, user } = ctx
  const creds: Credentials = {
    ca: fromDataOrFile(cluster.certificateAuthorityData, cluster.certificateAuthority),
    cert: fromDataOrFile(user.clientCertificateData, user.clientCertificate),
    key: fromDataOrFile(user.clientKeyData, user.clientKey),
    rejectUnauthorized: !cluster.insecureSkipTlsVerify,
    servername: cluster.tlsServerName,
    headers: {},
  }
  const token = user.token ?? (user.tokenFile ? fromDataOrFile(undefined, user.tokenFile)?.trim() : undefined)
  if (token) creds.headers.Authorization = `Bearer ${token}`
  else if (user.username && user.password) {
    creds.headers.Authorization = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`
  } else if (user.exec) {
    Object.assign(creds, await runExecPlugin(user.exec, creds))
  } else if (user.authProvider) {
    creds.headers = { ...creds.headers, ...(await authProviderHeaders(ctx)) }
  }
  return creds
}

/** client.authentication.k8s.io exec plugins: run the command, read an ExecCredential from stdout. */
async function runExecPlugin(exec: ExecConfig, creds: Credentials): Promise<Partial<Credentials>> {
  const command = exec.command.includes(path.sep) && !path.isAbsolute(exec.command) ? path.join(exec.baseDir, exec.command) : exec.command
  const env = { ...process.env }
  for (const { name, value } of exec.env ?? []) env[name] = value
  env.KUBERNETES_EXEC_INFO = JSON.stringify({
    apiVersion: exec.apiVersion ?? 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    spec: { interactive: false },
  })
  // Loaded here: most kubeconfigs have no exec plugin, and child_process is a large part of a quick start.
  const { execFile } = await import('node:child_process')
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(command, exec.args ?? [], { env, timeout: 30_000, maxBuffer: 1 << 20 }, (error, out, err) => {
      if (error)
        reject(
          incompleteError(
            `credential plugin ${exec.command} failed: ${(err || error.message).trim().split('\n')[0]}`,
            'check the exec plugin of the kubeconfig user',
            'unauthorized',
          ),
        )
      else resolve(out)
    })
  })
  let credential: unknown
  try {
    credential = JSON.parse(stdout)
  } catch {
    throw incompleteError(`credential plugin ${exec.command} printed no ExecCredential JSON`, 'run the plugin by hand to see what it prints', 'unauthorized')
  }
  const [token, cert, key] = ['token', 'clientCertificateData', 'clientKeyData'].map((name) => textAt(credential, 'status', name))
  if (token) return { headers: { ...creds.headers, Authorization: `Bearer ${token}` } }
  if (cert && key) return { cert, key }
  throw incompleteError(`credential plugin ${exec.command} returned neither a token nor a client certificate`, undefined, 'unauthorized')
}

/**
 * Auth providers (oidc, gcp, azure) are delegated to @kubernetes/client-node, loaded only here:
 * it costs half a second to load, which the common token and certificate paths never pay.
 */
async function authProviderHeaders(ctx: ResolvedContext): Promise<Record<string, string>> {
  const { KubeConfig } = await import('@kubernetes/client-node')
  const kc = new KubeConfig()
  const provider = ctx.user.authProvider!
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: ctx.cluster.server, skipTLSVerify: Boolean(ctx.cluster.insecureSkipTlsVerify) }],
    users: [{ name: 'u', authProvider: { name: provider.name, config: provider.config ?? {} } }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  })
  const options: { headers?: Record<string, string> } = {}
  await kc.applyToHTTPSOptions(options as never)
  return (options.headers ?? {}) as Record<string, string>
}
