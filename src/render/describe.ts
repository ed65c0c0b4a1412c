import { humanAge } from '../util/duration.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { allContainerStatuses } from '../snapshot/node-layout.js'
import { eventAge, eventSource } from './events.js'
import { alignTabs } from './tabwriter.js'
import { visible } from './visible.js'
import { compareText } from '../util/compare.js'
import type { ChainNode, ContainerStatus, KubeEvent, Pod } from '../snapshot/kinds.js'
import { eventText } from '../snapshot/events.js'

/*
 * Lines are built with tab-terminated cells and aligned at the end by alignTabs, the way kubectl
 * describe writes through text/tabwriter: each block of consecutive fields lines up on its own.
 */

/** "appVersion" → "App Version", as kubectl describe prints the fields of custom resources. */
const titleCase = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase())

/** A value as one cell: a tab inside would start a new one. */
const cell = (value: unknown) => (value === undefined || value === null || value === '' ? '<none>' : visible(String(value).replace(/\t/g, ' ')))

const field = (indent: number, key: string, value: unknown) => `${' '.repeat(indent)}${key}:\t${cell(value)}`

function mapLines(map: Record<string, string> | undefined, label: string): string[] {
  const entries = Object.entries(map ?? {}).sort(([a], [b]) => compareText(a, b))
  if (entries.length === 0) return [`${label}:\t<none>`]
  return entries.map(([k, v], i) => `${i === 0 ? `${label}:` : ''}\t${cell(`${k}=${v}`)}`)
}

/** Nested fields of a custom resource, kubectl-describe style (two spaces per level). */
function nested(value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent)
  if (Array.isArray(value)) {
    return value.flatMap((item) =>
      item && typeof item === 'object'
        ? nested(item, indent + 2).map((line, i) => (i === 0 ? `${pad}- ${line.trimStart()}` : line))
        : [`${pad}- ${cell(item)}`],
    )
  }
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
      inner !== null && typeof inner === 'object'
        ? [`${pad}${visible(titleCase(key))}:`, ...nested(inner, indent + 2)]
        : [field(indent, visible(titleCase(key)), inner)],
    )
  }
  return [`${pad}${cell(value)}`]
}

const ago = (at: string, now: number) => `${at} (${humanAge(now - Date.parse(at))} ago)`

function eventsSection(events: KubeEvent[], now: number): string[] {
  if (events.length === 0) return ['Events:\t<none>']
  return [
    'Events:',
    '  Type\tReason\tAge\tFrom\tMessage',
    '  ----\t------\t----\t----\t-------',
    ...events.map((e) => `  ${[e.type, e.reason, eventAge(e, now), eventSource(e)].map((c) => cell(c ?? '')).join('\t')}\t${visible(eventText(e).trim())}`),
  ]
}

export function describeChainNode(index: SnapshotIndex, node: ChainNode, now: number): string {
  const m = node.metadata
  return alignTabs([
    field(0, 'Name', m.name),
    field(0, 'Namespace', m.namespace),
    ...mapLines(m.labels, 'Labels'),
    ...mapLines(m.annotations, 'Annotations'),
    field(0, 'API Version', node.apiVersion),
    field(0, 'Kind', node.kind),
    field(0, 'Created', m.creationTimestamp ? ago(m.creationTimestamp, now) : undefined),
    field(0, 'Generation', m.generation),
    'Spec:',
    ...nested(node.spec ?? {}, 2),
    'Status:',
    ...(node.status ? nested(node.status, 2) : ['  <none>']),
    ...eventsSection(index.eventsFor(node), now),
  ]).join('\n')
}

type State = { reason?: string; startedAt?: string; exitCode?: number; message?: string }

function containerLines(
  statuses: ContainerStatus[],
  specs: { name: string; image?: string; ports?: { containerPort: number; name?: string }[] }[],
  now: number,
): string[] {
  return specs.flatMap((spec) => {
    const status = statuses.find((s) => s.name === spec.name)
    const [stateName, state] = (Object.entries(status?.state ?? {})[0] ?? ['Waiting', {}]) as [string, State]
    const [lastName, last] = (Object.entries(status?.lastState ?? {})[0] ?? []) as [string?, State?]
    return [
      `  ${visible(spec.name)}:`,
      field(4, 'Image', spec.image),
      field(4, 'Ports', (spec.ports ?? []).map((p) => `${p.containerPort}/TCP${p.name ? ` (${p.name})` : ''}`).join(', ')),
      field(4, 'State', `${titleCase(stateName)}${state?.reason ? `: ${state.reason}` : ''}`),
      ...(state?.startedAt ? [field(6, 'Started', ago(state.startedAt, now))] : []),
      ...(state?.exitCode !== undefined ? [field(6, 'Exit Code', state.exitCode)] : []),
      ...(state?.message ? [field(6, 'Message', String(state.message).trim())] : []),
      ...(lastName ? [field(4, 'Last State', `${titleCase(lastName)}${last?.reason ? `: ${last.reason}` : ''}`)] : []),
      field(4, 'Ready', String(status?.ready ?? false)),
      field(4, 'Restart Count', String(status?.restartCount ?? 0)),
    ]
  })
}

export function describePod(index: SnapshotIndex, pod: Pod, now: number): string {
  const m = pod.metadata
  const owner = m.ownerReferences?.find((ref) => ref.controller) ?? m.ownerReferences?.[0]
  const statuses = allContainerStatuses(pod)
  return alignTabs([
    field(0, 'Name', m.name),
    field(0, 'Namespace', m.namespace),
    field(0, 'Node', pod.spec?.nodeName ? `${pod.spec.nodeName}/${pod.status?.hostIP ?? ''}` : undefined),
    field(0, 'Start Time', pod.status?.startTime),
    ...mapLines(m.labels, 'Labels'),
    ...mapLines(m.annotations, 'Annotations'),
    field(0, 'Status', m.deletionTimestamp ? 'Terminating' : pod.status?.phase),
    field(0, 'IP', pod.status?.podIP),
    field(0, 'Controlled By', owner ? `${owner.kind}/${owner.name}` : undefined),
    ...(pod.spec?.initContainers?.length ? ['Init Containers:', ...containerLines(statuses, pod.spec.initContainers, now)] : []),
    'Containers:',
    ...containerLines(statuses, pod.spec?.containers ?? [], now),
    'Conditions:',
    // kubectl writes "Type \t" with a space: the column is one wider than its longest type.
    '  Type\tStatus',
    ...(pod.status?.conditions ?? []).map((c) => `  ${cell(c.type)} \t${cell(c.status ?? '')}`),
    ...eventsSection(index.eventsFor(pod), now),
  ]).join('\n')
}
