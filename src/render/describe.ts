import { humanAge } from '../duration.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { allContainerStatuses, type ContainerStatus } from '../snapshot/node-layout.js'
import type { KubeObject } from '../snapshot/types.js'
import { describeBlock } from './columns.js'
import { visible, visibleOrNone } from './visible.js'
import { eventAge, eventSource } from './events.js'
import { compareText } from '../compare.js'

/** "appVersion" → "App Version", as kubectl describe prints the fields of custom resources. */
const titleCase = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase())

function mapLines(map: Record<string, string> | undefined, label: string): string[] {
  const entries = Object.entries(map ?? {}).sort(([a], [b]) => compareText(a, b))
  if (entries.length === 0) return [`${label}:`.padEnd(14) + '<none>']
  return entries.map(([k, v], i) => `${i === 0 ? `${label}:`.padEnd(14) : ' '.repeat(14)}${visible(`${k}=${v}`)}`)
}

/** describeBlock with each value made visible (values come from the cluster or a bundle). */
const visibleBlock = (pairs: [string, string | undefined][], indent?: number) =>
  describeBlock(
    pairs.map(([key, value]) => [key, visibleOrNone(value)]),
    indent,
  )

/** Nested fields of a custom resource, kubectl-describe style (two spaces per level). */
function nested(value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent)
  if (Array.isArray(value)) {
    return value.flatMap((item) =>
      item && typeof item === 'object'
        ? nested(item, indent + 2).map((line, i) => (i === 0 ? `${pad}- ${line.trimStart()}` : line))
        : [`${pad}- ${visible(item)}`],
    )
  }
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
      inner !== null && typeof inner === 'object'
        ? [`${pad}${visible(titleCase(key))}:`, ...nested(inner, indent + 2)]
        : [`${pad}${visible(titleCase(key))}:  ${inner === '' || inner === undefined || inner === null ? '<none>' : visible(inner)}`],
    )
  }
  return [`${pad}${visible(value)}`]
}

export function eventsSection(events: KubeObject[], now: number): string[] {
  if (events.length === 0) return ['Events:  <none>']
  const rows = events.map((e) => [e.type ?? '', e.reason ?? '', eventAge(e, now), eventSource(e), String(e.message ?? e.note ?? '').trim()].map(visible))
  const headers = ['Type', 'Reason', 'Age', 'From', 'Message']
  const widths = headers.map((h, i) => rows.reduce((width, r) => Math.max(width, r[i].length), h.length))
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ')}`.trimEnd()
  return ['Events:', line(headers), line(headers.map((h) => '-'.repeat(h.length))), ...rows.map(line)]
}

export function describeChainNode(index: SnapshotIndex, node: KubeObject, now: number): string {
  const m = node.metadata
  return [
    visibleBlock([
      ['Name', m.name],
      ['Namespace', m.namespace],
    ]),
    ...mapLines(m.labels, 'Labels'),
    ...mapLines(m.annotations, 'Annotations'),
    visibleBlock([
      ['API Version', node.apiVersion],
      ['Kind', node.kind],
      ['Created', m.creationTimestamp ? `${m.creationTimestamp} (${humanAge(now - Date.parse(m.creationTimestamp))} ago)` : undefined],
      ['Generation', m.generation === undefined ? undefined : String(m.generation)],
    ]),
    'Spec:',
    ...nested(node.spec ?? {}, 2),
    'Status:',
    ...(node.status ? nested(node.status, 2) : ['  <none>']),
    ...eventsSection(index.eventsFor(node), now),
  ].join('\n')
}

function containerLines(
  statuses: ContainerStatus[],
  specs: { name: string; image?: string; ports?: { containerPort: number; name?: string }[] }[],
  now: number,
): string[] {
  return specs.flatMap((spec) => {
    const status = statuses.find((s) => s.name === spec.name)
    const [stateName, state] = Object.entries(status?.state ?? {})[0] ?? ['Waiting', {}]
    const [lastName, last] = Object.entries(status?.lastState ?? {})[0] ?? []
    const started = (state as { startedAt?: string })?.startedAt
    return [
      `  ${visible(spec.name)}:`,
      visibleBlock(
        [
          ['Image', spec.image],
          ['Ports', (spec.ports ?? []).map((p) => `${p.containerPort}/TCP${p.name ? ` (${p.name})` : ''}`).join(', ')],
          ['State', `${titleCase(stateName)}${(state as { reason?: string })?.reason ? `: ${(state as { reason?: string }).reason}` : ''}`],
          ...(started ? ([['  Started', `${started} (${humanAge(now - Date.parse(started))} ago)`]] as [string, string][]) : []),
          ...((state as { exitCode?: number })?.exitCode !== undefined
            ? ([['  Exit Code', String((state as { exitCode: number }).exitCode)]] as [string, string][])
            : []),
          ...((state as { message?: string })?.message ? ([['  Message', String((state as { message: string }).message).trim()]] as [string, string][]) : []),
          ...(lastName
            ? ([['Last State', `${titleCase(lastName)}${(last as { reason?: string })?.reason ? `: ${(last as { reason?: string }).reason}` : ''}`]] as [
                string,
                string,
              ][])
            : []),
          ['Ready', String(status?.ready ?? false)],
          ['Restart Count', String(status?.restartCount ?? 0)],
        ],
        4,
      ),
    ]
  })
}

export function describePod(index: SnapshotIndex, pod: KubeObject, now: number): string {
  const m = pod.metadata
  const owner = m.ownerReferences?.find((ref) => ref.controller) ?? m.ownerReferences?.[0]
  const statuses = allContainerStatuses(pod)
  return [
    visibleBlock([
      ['Name', m.name],
      ['Namespace', m.namespace],
      ['Node', pod.spec?.nodeName ? `${pod.spec.nodeName}/${pod.status?.hostIP ?? ''}` : undefined],
      ['Start Time', pod.status?.startTime],
    ]),
    ...mapLines(m.labels, 'Labels'),
    ...mapLines(m.annotations, 'Annotations'),
    visibleBlock([
      ['Status', m.deletionTimestamp ? 'Terminating' : pod.status?.phase],
      ['IP', pod.status?.podIP],
      ['Controlled By', owner ? `${owner.kind}/${owner.name}` : undefined],
    ]),
    ...(pod.spec?.initContainers?.length ? ['Init Containers:', ...containerLines(statuses, pod.spec.initContainers, now)] : []),
    'Containers:',
    ...containerLines(statuses, pod.spec?.containers ?? [], now),
    'Conditions:',
    '  Type              Status',
    ...(pod.status?.conditions ?? []).map(
      (c: { type: string; status: string }) => `  ${visible(c.type).padEnd(Math.max(18, c.type.length + 2))}${visible(c.status)}`,
    ),
    ...eventsSection(index.eventsFor(pod), now),
  ].join('\n')
}
