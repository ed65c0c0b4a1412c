/** Wires the scenarios' log and port-forward needs to the launcher's kwok helpers. */
import { Kube } from '../../kube.js'
import { serveLogFile, setLogs } from '../../logs.js'
import { forwardPort } from '../../portforward.js'
import type { ScenarioCtx } from '../types.js'
import { readCa } from './api.js'
import type { ClusterIO, ContainerLogs } from './seeder.js'

export function clusterIO(ctx: ScenarioCtx): ClusterIO {
  const ca = readCa(ctx.kubeconfigPath, ctx.server)
  if (!ca) throw new Error(`scenarios: no certificate-authority in ${ctx.kubeconfigPath}`)
  const kube = new Kube({ server: ctx.server, token: ctx.adminToken, ca })
  return {
    async setLogs(ns: string, pod: string, containers: Record<string, ContainerLogs>): Promise<void> {
      await setLogs(ns, pod, containers, { dir: ctx.clusterDir, kube })
    },
    async forwardPort(ns: string, pod: string, podPort: number, targetPort: number): Promise<void> {
      await forwardPort(ns, pod, podPort, targetPort, { dir: ctx.clusterDir, kube, probe: 'http', timeoutMs: 15_000 })
    },
    async serveLogFile(ns: string, pod: string, container: string, file: string): Promise<void> {
      await serveLogFile(ns, pod, container, file, { dir: ctx.clusterDir, kube })
    },
  }
}
