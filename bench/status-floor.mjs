// The network floor of `status -A -o wide`: what any run that shows the same live columns must do, with nothing of
// what the command does besides. Node's start, our API client and port-forward pool (dist/, the modules status uses),
// the ChainNodes and Pods listed, and one /status and /net_info read through a port-forward per running node, those
// port-forwards opened at the start as status opens them (from the Pods the last run read, kept in its state folder).
// No masking, no rules, no Events, ConfigMaps or logs, no rendering. bench/scenario-fleet.ts runs it beside status
// and kubectl: its ratio to kubectl is the least status -o wide could reach in Node on this machine.
// Usage: node bench/status-floor.mjs DIST (reads KUBECONFIG and KUBECTL_CHAINNODE_STATE_DIR)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const dist = pathToFileURL(path.resolve(process.argv[2] ?? 'dist')).href
const [{ resolveContext }, { credentialsFor }, { KubeClient }, { PodHttpPool }] = await Promise.all([
  import(`${dist}/cluster/kubeconfig.js`),
  import(`${dist}/cluster/auth.js`),
  import(`${dist}/cluster/kube-client.js`),
  import(`${dist}/cluster/pod-http.js`),
])
const RPC_PORT = 26657
const remembered = path.join(process.env.KUBECTL_CHAINNODE_STATE_DIR ?? '.', 'floor-pods.json')

const context = await resolveContext({})
const credentials = await credentialsFor(context)
const server = context.cluster.server
const client = new KubeClient({ server, credentials, timeoutMs: 10_000, concurrency: 32 })
const pool = new PodHttpPool({ server, credentials, timeoutMs: 5_000 })
let known = []
try {
  known = JSON.parse(readFileSync(remembered, 'utf8'))
} catch {
  // The first run lists before it forwards.
}
for (const { namespace, pod } of known) pool.warm(namespace, pod, RPC_PORT)
const [nodes, pods] = await Promise.all([client.getJSON('/apis/cosmopilot.voluzi.com/v1/chainnodes'), client.getJSON('/api/v1/pods')])
const nodeNames = new Set(nodes.items.map((n) => `${n.metadata.namespace}/${n.metadata.name}`))
const running = pods.items.filter((p) => p.status?.phase === 'Running' && nodeNames.has(`${p.metadata.namespace}/${p.metadata.name}`))
const answers = await Promise.all(
  running.map((p) => pool.get(p.metadata.namespace, p.metadata.name, RPC_PORT, ['/status', '/net_info'], 1 << 20).catch((error) => [error])),
)
pool.close()
client.close()
mkdirSync(path.dirname(remembered), { recursive: true })
writeFileSync(remembered, JSON.stringify(running.map((p) => ({ namespace: p.metadata.namespace, pod: p.metadata.name }))))
process.stdout.write(`${running.length} nodes, ${answers.flat().filter((a) => !(a instanceof Error)).length} answers\n`)
