import type { Credentials } from './auth.js'
import type { KubeClient } from './kube-client.js'
import type { ResolvedContext } from './kubeconfig.js'
import type { WatchedLists } from './watched-lists.js'

/** One cluster opened for a run: the client that reads it, and what port-forwards need to reach its Pods. */
export interface Connection {
  client: KubeClient
  context: ResolvedContext
  credentials: Credentials
  /** Lists kept current by watches, where a process reads the cluster again and again (serve). */
  watched?: WatchedLists
  /** Called once per port-forward a run's probes open, with the Pod port or ports it carries (--debug accounting). */
  onForward?: (namespace: string, pod: string, ports: number | readonly number[], again?: boolean) => void
  /** Called once a port-forward's TLS handshake is done: whether it resumed the API connection's session (--debug). */
  onSecure?: (namespace: string, pod: string, resumed: boolean) => void
  /** Called when the answers of one call through a port-forward are in (--debug timings). */
  onPodAnswers?: (target: string, paths: string[], ms: number, failure?: string) => void
}
