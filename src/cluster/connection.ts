import type { Credentials } from './auth.js'
import type { KubeClient } from './kube-client.js'
import type { ResolvedContext } from './kubeconfig.js'

/** One cluster opened for a run: the client that reads it, and what port-forwards need to reach its Pods. */
export interface Connection {
  client: KubeClient
  context: ResolvedContext
  credentials: Credentials
}
