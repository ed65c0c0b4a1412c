import { createHash } from 'node:crypto'
import type { KubeObject } from '../../src/snapshot/types.js'

/** How a manager line dates itself: controller-runtime v0.24's RFC 3339 string (the real v3.0.0 manager), or the epoch float of older builds. */
export type TsForm = 'rfc3339' | 'epoch'

const hash = (text: string) => createHash('sha256').update(text).digest('hex')
/** A reconcileID as controller-runtime writes it (a UUID), stable per input so goldens do not move. */
const uuidOf = (text: string) => {
  const h = hash(text)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** zap's RFC3339TimeEncoder: whole seconds, `Z`. */
export const rfc3339 = (at: string) => new Date(Date.parse(at)).toISOString().replace(/\.\d+Z$/, 'Z')

const STACKTRACE =
  'sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).reconcileHandler\n\t/go/pkg/mod/sigs.k8s.io/controller-runtime@v0.24.0/pkg/internal/controller/controller.go:474\n' +
  'sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).processNextWorkItem\n\t/go/pkg/mod/sigs.k8s.io/controller-runtime@v0.24.0/pkg/internal/controller/controller.go:421'

/**
 * One manager log line about a ChainNode or ChainNodeSet inside a reconcile, as the kubelet serves it with
 * timestamps=true: the CRI time, then the JSON controller-runtime's zap production encoder writes (error lines
 * carry a stacktrace).
 */
export function managerLine(obj: KubeObject, line: { msg: string; at: string; error?: string; phase?: string; level?: string }, form: TsForm): string {
  const kind = obj.kind
  const { name, namespace } = obj.metadata
  const level = line.level ?? (line.error !== undefined || line.msg === 'Reconciler error' ? 'error' : 'info')
  const ts = form === 'rfc3339' ? rfc3339(line.at) : Date.parse(line.at) / 1000
  const fields: Record<string, unknown> = {
    level,
    ts,
    msg: line.msg,
    controller: kind.toLowerCase(),
    controllerGroup: 'cosmopilot.voluzi.com',
    controllerKind: kind,
    [kind]: { name, namespace },
    namespace,
    name,
    reconcileID: uuidOf(`${kind}/${namespace}/${name}/${line.at}/${line.msg}`),
    ...(line.phase !== undefined ? { phase: line.phase } : {}),
    ...(line.error !== undefined ? { error: line.error } : {}),
    ...(level === 'error' ? { stacktrace: STACKTRACE } : {}),
  }
  return `${new Date(Date.parse(line.at)).toISOString()} ${JSON.stringify(fields)}\n`
}

/** A Warning Event the operator's recorder writes on its ChainNode or ChainNodeSet, as the API server stores it (core/v1). */
export function operatorEvent(obj: KubeObject, reason: string, message: string, at: string, type = 'Warning', count = 1): KubeObject {
  const component = obj.kind === 'ChainNodeSet' ? 'chainnodeset-controller' : 'chainnode-controller'
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${obj.metadata.name}.${hash(reason + message + at).slice(0, 16)}`,
      namespace: obj.metadata.namespace,
      uid: uuidOf(`event/${reason}/${message}/${at}`),
      resourceVersion: '9001',
      creationTimestamp: rfc3339(at),
    },
    involvedObject: {
      kind: obj.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
      uid: obj.metadata.uid,
      apiVersion: 'cosmopilot.voluzi.com/v1',
      resourceVersion: obj.metadata.resourceVersion,
    },
    reason,
    message,
    source: { component },
    firstTimestamp: rfc3339(at),
    lastTimestamp: rfc3339(at),
    count,
    type,
    eventTime: null,
    reportingComponent: component,
    reportingInstance: '',
  }
}
