import { onInterrupt } from '../util/cleanup.js'
import { lineSplitter, type KubeClient } from '../cluster/kube-client.js'
import { diffConfigs } from '../analysis/config-diff.js'
import { renderChanges } from '../render/config-hash.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { KubeObject, Snapshot } from '../snapshot/types.js'
import { Redactor } from '../snapshot/redact.js'
import { parseJsonPruned } from '../util/json-depth.js'
import { annotation } from '../snapshot/operator.js'

interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'
  object: KubeObject
}

const hashOf = (obj: KubeObject | undefined) => obj?.metadata.annotations?.[annotation('config-hash')]
const stamp = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z')

/**
 * Follow the node's Pod and ConfigMap until Ctrl-C, printing every config-hash change and Pod
 * restart as it happens, with the key-level configuration diff.
 */
export async function watchConfigHash(client: KubeClient, snapshot: Snapshot, node: KubeObject, print: (line: string) => void, redact = true): Promise<void> {
  const index = new SnapshotIndex(snapshot)
  const ns = node.metadata.namespace!
  const name = node.metadata.name
  let configMap = index.configMapOf(node)
  let pod = index.podOf(node)
  let lastPodHash = hashOf(pod)
  const abort = new AbortController()
  const release = onInterrupt(() => abort.abort())
  print(`watching Pod and ConfigMap ${ns}/${name} (Ctrl-C to stop)`)

  const onConfigMap = (event: WatchEvent) => {
    if (event.type === 'DELETED') return print(`${stamp()}  ConfigMap ${name} deleted`)
    const next = event.object
    if (configMap && next.metadata.uid === configMap.metadata.uid && next.metadata.resourceVersion === configMap.metadata.resourceVersion) return
    const changes = diffConfigs(configMap?.data ?? {}, next.data ?? {})
    const [before, after] = [hashOf(configMap), hashOf(next)]
    if (before !== after) print(`${stamp()}  ConfigMap ${name}: config-hash ${before ?? '<none>'} -> ${after ?? '<none>'} (the operator will restart the Pod)`)
    else if (changes.length) print(`${stamp()}  ConfigMap ${name}: data changed, config-hash unchanged (no restart: peer or state-sync settings)`)
    if (changes.length) print(renderChanges(changes))
    configMap = next
  }
  const onPod = (event: WatchEvent) => {
    const next = event.object
    if (event.type === 'DELETED') {
      print(`${stamp()}  Pod ${name} deleted (uid ${next.metadata.uid})`)
      return
    }
    if (pod && next.metadata.uid === pod.metadata.uid) {
      if (hashOf(next) !== hashOf(pod))
        print(`${stamp()}  Pod ${name}: config-hash ${hashOf(pod) ?? '<none>'} -> ${hashOf(next) ?? '<none>'} (patched in place)`)
      pod = next
      return
    }
    if (pod || event.type === 'ADDED') {
      const hash = hashOf(next)
      const verdict = hash !== lastPodHash ? 'restart because the configuration changed (intentional)' : 'same config-hash: unexpected restart'
      print(`${stamp()}  Pod ${name} recreated (uid ${next.metadata.uid}), config-hash ${lastPodHash ?? '<none>'} -> ${hash ?? '<none>'}: ${verdict}`)
      lastPodHash = hash
    }
    pod = next
  }

  // What the watch sends is masked as the snapshot was: a password in an override shows in neither side of a diff.
  const redactor = redact ? new Redactor() : undefined
  const follow = (path: string, handle: (event: WatchEvent) => void) =>
    client.stream(
      path,
      lineSplitter((line) => {
        if (!line.trim()) return
        const event = parseJsonPruned<WatchEvent>(line)
        handle(redactor ? { ...event, object: redactor.value(event.object) } : event)
      }),
      abort.signal,
    )
  const selector = `fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`
  try {
    await Promise.all([
      follow(`/api/v1/namespaces/${ns}/configmaps?watch=true&allowWatchBookmarks=false&${selector}`, onConfigMap),
      follow(`/api/v1/namespaces/${ns}/pods?watch=true&allowWatchBookmarks=false&${selector}`, onPod),
    ])
  } finally {
    release()
  }
}
