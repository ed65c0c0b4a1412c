import { onInterrupt } from '../util/cleanup.js'
import type { KubeClient } from '../cluster/kube-client.js'
import { watchNamed, type WatchEvent } from '../cluster/watch-stream.js'
import { diffConfigs } from '../analysis/config-diff.js'
import type { ConfigWatchEvent } from '../analysis/config-diff.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { KubeObject, Snapshot } from '../snapshot/types.js'
import { Redactor } from '../snapshot/redact.js'
import { annotation } from '../snapshot/operator.js'
import { type ChainNode, isKind } from '../snapshot/kinds.js'

const hashOf = (obj: KubeObject | undefined) => obj?.metadata.annotations?.[annotation('config-hash')]
const now = () => new Date().toISOString()

/**
 * Follow the node's Pod and ConfigMap until Ctrl-C, handing on every config-hash change and Pod restart as it
 * happens, with the key-level configuration diff.
 */
export async function watchConfigHash(
  client: KubeClient,
  snapshot: Snapshot,
  node: ChainNode,
  report: (event: ConfigWatchEvent) => void,
  redact = true,
): Promise<void> {
  const index = new SnapshotIndex(snapshot)
  const namespace = node.metadata.namespace!
  const name = node.metadata.name
  let configMap = index.configMapOf(node)
  let pod = index.podOf(node)
  let lastPodHash = hashOf(pod)
  const abort = new AbortController()
  const release = onInterrupt(() => abort.abort())
  report({ kind: 'watching', namespace, name })

  const onConfigMap = (event: WatchEvent) => {
    if (event.type === 'DELETED') return report({ kind: 'configmap-deleted', at: now(), name })
    const next = event.object
    if (!next || !isKind(next, 'ConfigMap')) return
    if (configMap && next.metadata.uid === configMap.metadata.uid && next.metadata.resourceVersion === configMap.metadata.resourceVersion) return
    const changes = diffConfigs(configMap?.data ?? {}, next.data ?? {})
    const [hashBefore, hashAfter] = [hashOf(configMap), hashOf(next)]
    if (hashBefore !== hashAfter || changes.length) report({ kind: 'configmap-changed', at: now(), name, hashBefore, hashAfter, changes })
    configMap = next
  }
  const onPod = (event: WatchEvent) => {
    const next = event.object
    if (!next || !isKind(next, 'Pod')) return
    if (event.type === 'DELETED') return report({ kind: 'pod-deleted', at: now(), name, uid: next.metadata.uid })
    if (pod && next.metadata.uid === pod.metadata.uid) {
      if (hashOf(next) !== hashOf(pod)) report({ kind: 'pod-patched', at: now(), name, hashBefore: hashOf(pod), hashAfter: hashOf(next) })
      pod = next
      return
    }
    if (pod || event.type === 'ADDED') {
      const hash = hashOf(next)
      report({ kind: 'pod-recreated', at: now(), name, uid: next.metadata.uid, hashBefore: lastPodHash, hashAfter: hash })
      lastPodHash = hash
    }
    pod = next
  }

  // What the watch sends is masked as the snapshot was: a password in an override shows in neither side of a diff.
  const redactor = redact ? new Redactor() : undefined
  const masked = (handle: (event: WatchEvent) => void) => (event: WatchEvent) => handle(redactor ? { ...event, object: redactor.value(event.object) } : event)
  try {
    await Promise.all([
      watchNamed(client, 'configmaps', namespace, name, masked(onConfigMap), abort.signal),
      watchNamed(client, 'pods', namespace, name, masked(onPod), abort.signal),
    ])
  } finally {
    release()
  }
}
