import { renderStatusText, statusNotes } from '../render/status.js'
import { structured } from '../render/structured.js'
import { visible } from '../render/visible.js'
import { tableWidth } from '../render/width.js'
import { keyedRows, requireLive, watchRows } from '../app/watch.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { Snapshot } from '../snapshot/types.js'
import {
  defineCommand,
  GLOBAL_FLAGS,
  KUBE_FLAGS,
  LISTING_FLAGS,
  NODE_ARG,
  SCOPE_FLAGS,
  SNAPSHOT_FLAGS,
  templatedOutputSpec,
  type InputOf,
} from './flag-spec.js'
import type { Session } from './session.js'
import { CHAIN_PROBE_TIMEOUT_MS, DEFAULT_SIGNING_WINDOW } from '../app/live-source.js'
import { outputFormatOf, writeStderr, writeStdout } from '../util/output.js'
import { diagnose, selectRules } from '../app/doctor.js'
import { operatorTroubleLines } from '../render/status-notes.js'
import { plainPalette } from '../render/palette.js'
import { fieldPath, kubectlList, nameLine, sortByField } from '../render/status-listing.js'
import { parseJsonPathTemplate, renderJsonPath } from '../render/jsonpath.js'
import { usageError, ExitCode } from '../util/errors.js'
import type { ClusterReport } from '../engine/doctor-result.js'
import { statusRows, type StatusRow } from '../analysis/status-model.js'

/** The rules about the operator itself, whose finding holds for every node it reconciles: status says them above its table. */
export const OPERATOR_WIDE_RULES = ['operator-missing', 'leader-election', 'webhook-certificates'] as const

/** What the operator-wide rules find in one snapshot (status reads what they need: the release, its Lease, the webhook). */
function operatorTrouble(snapshot: Snapshot): ClusterReport {
  return diagnose([snapshot], selectRules({ only: OPERATOR_WIDE_RULES })).clusters[0]
}

export const STATUS_COMMAND = defineCommand({
  summary: 'Show nodes the way kubectl get does: phase, chain, height, pod readiness, restarts and config-hash state',
  description:
    "Without NAME, --set or -A it lists every node in the namespace, as kubectl get does. -o wide adds the rest of the server columns (IP, validator, bond status, jailed, data usage), Pod recreations, and what the nodes themselves say (live height, age of the last block, peers, catching up), read from each running Pod's CometBFT RPC on 26657 through a port-forward.",
  examples: [
    '<%= config.bin %> status fullnode-0 -n cosmos',
    '<%= config.bin %> status -n cosmos -w',
    '<%= config.bin %> status -A -l validator=true -o wide',
    '<%= config.bin %> status --bundle examples/bundles/healthy.tgz -o wide',
    '<%= config.bin %> status --bundle examples/bundles/healthy.tgz -o yaml',
    `<%= config.bin %> status --bundle examples/bundles/healthy.tgz -o jsonpath='{range .items[*]}{.metadata.name}{"\\t"}{.status.latestHeight}{"\\n"}{end}'`,
  ],

  args: NODE_ARG,
  flags: {
    ...GLOBAL_FLAGS,
    ...KUBE_FLAGS,
    ...SCOPE_FLAGS,
    ...SNAPSHOT_FLAGS,
    output: templatedOutputSpec(['text', 'wide', 'name', 'json', 'yaml'], ['jsonpath']),
    ...LISTING_FLAGS,
    'sort-by': { type: 'string', description: 'sort the nodes by a field of the ChainNode, as kubectl does: .metadata.name, {.status.latestHeight}' },
    'show-labels': { type: 'boolean', description: "show the nodes' labels as the last column" },
    'label-columns': { type: 'string', char: 'L', description: 'a column for the value of this label (repeatable, or comma-separated)', multiple: true },
  },
})

export async function runStatus(input: InputOf<typeof STATUS_COMMAND>, session: Session): Promise<ExitCode> {
  if (input.watch) requireLive(input.bundle)
  const template = input.output.startsWith('jsonpath=') ? input.output.slice('jsonpath='.length) : undefined
  // A bad template is said before the cluster is read.
  if (template !== undefined) parseJsonPathTemplate(template)
  if (template !== undefined && input.watch) throw usageError('-o jsonpath cannot be watched', 'drop -w, or watch the table: status -w')
  // The wide columns come from the nodes: one /status and /net_info each, no second reading, nothing of node-utils.
  const chainProbe =
    input.output === 'wide' ? { windowMs: 0, timeoutMs: CHAIN_PROBE_TIMEOUT_MS, signingWindow: DEFAULT_SIGNING_WINDOW, nodeUtils: false } : undefined
  // No node logs; the manager log says why a node's reconciles fail. Events count recreations.
  // The operator-wide trouble above the table is leader-election's and webhook-certificates': their Lease and Certificates.
  const objects = {
    kinds: ['Pod', 'ConfigMap', 'Event', 'ChainNodeSet', 'ValidatingWebhookConfiguration'],
    operator: true,
    operatorKinds: ['Lease', 'Certificate'],
    // The table reads the Events about the ChainNodes (recreations, restarts) and the ConfigMaps' config-hash, not the
    // Pods' Events or the rendered files: on the scenario fleet that is 560 of the 1,400 kB the lists would carry.
    narrowed: { Event: { fieldSelector: 'involvedObject.kind=ChainNode' }, ConfigMap: { metadataOnly: true } },
  }
  const read = () => session.reader.snapshots(input, { logs: 'none', logRoles: new Set(['operator']), chainProbe, objects, namespaceByDefault: true })
  const snapshots = await read()
  // No cell is cut (kubectl cuts none: a long row wraps in the terminal).
  const text = (snapshot: Snapshot, rows: StatusRow[], noHeaders = input['no-headers']) =>
    renderStatusText(new SnapshotIndex(snapshot), rows, {
      withNamespace: snapshot.scope.kind === 'all',
      wide: input.output === 'wide',
      noHeaders,
      showLabels: input['show-labels'],
      labelColumns: input['label-columns'],
    })
  // kubectl's --sort-by reads the object listed: here the ChainNode of each row.
  const rowsOf = (snapshot: Snapshot): StatusRow[] => {
    const index = new SnapshotIndex(snapshot)
    const rows = statusRows(index)
    if (!input['sort-by']) return rows
    const nodes = new Map(index.chainNodes().map((n) => [`${n.metadata.namespace}/${n.metadata.name}`, n]))
    return sortByField(rows, (r) => nodes.get(`${r.namespace}/${r.name}`), input['sort-by'])
  }
  if (input['sort-by']) fieldPath(input['sort-by'])
  if (input.output === 'json' || input.output === 'yaml') {
    const nodes = snapshots.flatMap((snapshot) => rowsOf(snapshot).map((row) => ({ context: snapshot.source.context, ...row })))
    const collectionErrors = snapshots.flatMap((s) => s.collectionErrors)
    const operator = snapshots.flatMap((snapshot) =>
      operatorTrouble(snapshot).report.findings.map((f) => ({
        context: snapshot.source.context,
        ruleId: f.ruleId,
        severity: f.severity,
        summary: f.summary,
        subject: f.subject,
      })),
    )
    session.output.print(
      structured(input.output, { schemaVersion: 1, kind: 'NodeStatusList', nodes, operator, collectionErrors }),
      outputFormatOf(input.output),
    )
  } else if (template !== undefined) {
    // As kubectl get -o jsonpath: over the ChainNode itself when one is named, else over a List of them.
    const nodes = snapshots.flatMap((snapshot) => {
      const index = new SnapshotIndex(snapshot)
      const byKey = new Map(index.chainNodes().map((n) => [`${n.metadata.namespace}/${n.metadata.name}`, n]))
      return rowsOf(snapshot).map((r) => byKey.get(`${r.namespace}/${r.name}`)!)
    })
    const text = renderJsonPath(template, input.name && nodes.length === 1 ? nodes[0] : kubectlList(nodes))
    // kubectl adds no newline: the template says where lines end. Scripts read it: no unredacted mark.
    if (text) writeStdout(text)
  } else if (input.output === 'name') {
    // kubectl's -o name: one resource/name a line, nothing else, for scripts.
    for (const snapshot of snapshots) {
      const index = new SnapshotIndex(snapshot)
      const nodes = new Map(index.chainNodes().map((n) => [`${n.metadata.namespace}/${n.metadata.name}`, n]))
      const lines = rowsOf(snapshot).map((r) => nameLine(nodes.get(`${r.namespace}/${r.name}`)!))
      if (lines.length) session.output.print(visible(lines.join('\n')))
    }
  } else {
    for (const snapshot of snapshots) {
      if (snapshots.length > 1) session.output.print(session.output.palette.paint('heading', `Cluster ${visible(snapshot.source.context)}`))
      const rows = rowsOf(snapshot)
      // stdout holds only the table; what is said about it goes to stderr, as kubectl's notes, and not at all with --no-headers.
      const notes = !input['no-headers'] && rows.length > 0
      if (notes) noteOnStderr(operatorTroubleLines(operatorTrouble(snapshot).diagnosis, stderrPalette(session), tableWidth(process.stderr)).join('\n'))
      if (rows.length) session.output.print(text(snapshot, rows))
      else writeStderr(`${noneFound(snapshot)}\n`)
      if (notes) noteOnStderr(['', ...statusNotes(new SnapshotIndex(snapshot), rows, snapshot.scope.kind === 'all', tableWidth(process.stderr))].join('\n'))
    }
  }
  const code = snapshots.some((s) => s.collectionErrors.length > 0) ? ExitCode.Incomplete : ExitCode.Clean
  if (!input.watch) return code
  const keyed = async (round: Snapshot[]) =>
    new Map(
      round.flatMap((snapshot) => {
        const rows = statusRows(new SnapshotIndex(snapshot))
        // The age column ticks on its own: a change is a change of anything else.
        const keys = rows.map((r) => ({
          key: `${snapshot.source.context}/${r.namespace}/${r.name}`,
          version: JSON.stringify({ ...r, server: { ...r.server, Age: '' } }),
        }))
        return [...keyedRows(keys, text(snapshot, rows, true))]
      }),
    )
  await watchRows(
    async () => keyed(await read()),
    await keyed(snapshots),
    (line) => session.output.print(line),
  )
  return code
}

/** A note written to stderr, when there is one (a lone blank line is none). */
const noteOnStderr = (text: string) => text.trim() && writeStderr(text.endsWith('\n') ? text : `${text}\n`)

/** Colours on stderr only when it is a terminal, as on stdout. */
const stderrPalette = (session: Session) => (process.stderr.isTTY ? session.output.palette : plainPalette)

/** kubectl's "No resources found in NS namespace.", on stderr as kubectl's. */
function noneFound(snapshot: Snapshot): string {
  return snapshot.scope.kind === 'all' || !snapshot.scope.namespace ? 'No ChainNodes found.' : `No ChainNodes found in ${snapshot.scope.namespace} namespace.`
}
