export interface ScenarioCtx {
  kubeconfigPath: string
  server: string
  adminToken: string
  /** Node managed by kwok: pods there go Running/Ready by themselves. */
  kwokNode: string
  /** Node nobody manages: pods there keep the status a scenario patches. */
  unmanagedNode: string
  /** 127.0.0.1 port of the Go net/http/pprof target (stands in for node-utils on 6666). */
  pprofPort: number
  /** 127.0.0.1 port behind the "port 6666 taken" node-utils double (nothing profiles there). */
  pprofTakenPort?: number
  /** Directory for files the cluster serves (CRI log files). */
  clusterDir: string
}

export interface ScenarioInfo {
  /** Scenario name; also its namespace. */
  name: string
  namespace: string
  /** The ChainNode a test points the CLI at. */
  node: string
  /** Rule id expected to fire on `node`; null for healthy scenarios. */
  symptomRule: string | null
  description: string
}
