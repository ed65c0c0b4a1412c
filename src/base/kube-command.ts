import { Flags } from '@oclif/core'
import { credentialsFor, type Credentials } from '../cluster/auth.js'
import { KubeClient } from '../cluster/kube-client.js'
import { resolveContext, type ResolvedContext } from '../cluster/kubeconfig.js'
import { parseDuration } from '../duration.js'
import { BaseCommand } from './command.js'

export interface Connection {
  client: KubeClient
  context: ResolvedContext
  credentials: Credentials
}

export interface KubeFlags {
  kubeconfig?: string
  context?: string
  namespace?: string
  'request-timeout': string
}

/** Flags kubectl would own; kubectl passes none to a plugin, so they come after the command name. */
export abstract class KubeCommand extends BaseCommand {
  static baseFlags = {
    ...BaseCommand.baseFlags,
    kubeconfig: Flags.string({ description: 'path to the kubeconfig file (default: KUBECONFIG, then ~/.kube/config)', helpGroup: 'KUBE' }),
    context: Flags.string({ description: 'kubeconfig context to use', helpGroup: 'KUBE' }),
    namespace: Flags.string({ char: 'n', description: 'namespace (default: the context namespace)', helpGroup: 'KUBE' }),
    'request-timeout': Flags.string({ description: 'timeout of each API request (e.g. 10s, 1m; 0 = none)', default: '30s', helpGroup: 'KUBE' }),
  }

  private readonly connections: KubeClient[] = []

  protected async connect(flags: KubeFlags, contextName = flags.context): Promise<Connection> {
    const timeoutMs = parseDuration(flags['request-timeout'], '--request-timeout') || 24 * 3_600_000
    const context = await resolveContext({ kubeconfig: flags.kubeconfig, context: contextName, namespace: flags.namespace })
    const credentials = await credentialsFor(context)
    const client = new KubeClient({
      server: context.cluster.server,
      credentials,
      timeoutMs,
      concurrency: 16,
      onRequest: (method, path) => this.debugLine(`${method} ${path}`),
    })
    this.connections.push(client)
    return { client, context, credentials }
  }

  protected async finally(error: Error | undefined): Promise<unknown> {
    for (const client of this.connections) {
      this.debugLine(`${client.requestCount} API requests to ${client.server}`)
      client.close()
    }
    return super.finally(error)
  }
}
