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
}
