import { usageError, ExitCode } from '../util/errors.js'
import { onlyReconcilingReleases } from '../app/snapshots.js'
import { activeProbes } from '../app/diagnosis-options.js'
import { writeBundle } from '../snapshot/bundle.js'
import { withinLogBudget } from '../snapshot/left-out.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, NODE_ARG, PROBE_FLAGS, PROBE_WINDOW_FLAG, SCOPE_FLAGS, SNAPSHOT_FLAGS, type InputOf } from './flag-spec.js'
import type { Session } from './session.js'
import { writeStderr } from '../util/output.js'

export const COLLECT_COMMAND = defineCommand({
  summary: 'Save everything about nodes into a support bundle that doctor and the other commands can read offline',
  description:
    'Secret objects are never read; tokens, keys and mnemonics in logs, env values and annotations are masked unless --no-redact is given. The layout is documented in the README.',
  examples: ['<%= config.bin %> collect fullnode-0 -n cosmos --out incident.tgz', '<%= config.bin %> collect --all -n cosmos --out ./bundle-dir'],

  args: NODE_ARG,
  flags: {
    ...GLOBAL_FLAGS,
    ...KUBE_FLAGS,
    ...SCOPE_FLAGS,
    'no-redact': SNAPSHOT_FLAGS['no-redact'],
    tail: SNAPSHOT_FLAGS.tail,
    out: { type: 'string', description: 'FILE.tgz or a new directory', required: true },
    'no-probe': PROBE_FLAGS['no-probe'],
    'gate-timeout': PROBE_FLAGS['gate-timeout'],
    ...PROBE_WINDOW_FLAG,
  },
})

/** The node and operator logs a bundle carries at most: well within what a reader takes (1 GiB unpacked, readLimits). */
export const COLLECT_LOG_BUDGET = 512 * 1024 * 1024

export async function runCollect(input: InputOf<typeof COLLECT_COMMAND>, session: Session): Promise<ExitCode> {
  if (input.context?.includes(',')) throw usageError('collect writes one bundle per cluster', 'give a single --context')
  // What doctor reads, and no sample: every container of every node's Pod, and doctor's probes (the chain's, the
  // signer's), so doctor --bundle decides as the live run did whatever the scope.
  const { probe, chainProbe } = activeProbes(input)
  const [collected] = await session.reader.snapshots(input, { logs: 'all', probe, chainProbe })
  const released = onlyReconcilingReleases(collected)
  const { kept, leftOut: overBudget } = withinLogBudget(released.logs, COLLECT_LOG_BUDGET)
  // Every log the bundle does not carry, with why: a read that failed (a container that did not answer) or the size limit.
  const leftOut = [...released.collectionErrors.filter((e) => e.what.startsWith('logs of ')), ...overBudget]
  const snapshot = { ...released, logs: kept, leftOut }
  await writeBundle(input.out, snapshot, !input['no-redact'])
  const nodes = snapshot.chainNodeRows.length
  const left = leftOut.length > 0 ? `, ${leftOut.length} log(s) left out (${leftOutSummary(leftOut)}; listed in manifest.json leftOut)` : ', nothing left out'
  writeStderr(
    `wrote ${input.out}: ${nodes} node(s), ${snapshot.objects.length} objects, ${snapshot.logs.length} logs, ${snapshot.redactions} value(s) redacted, ${snapshot.collectionErrors.length} read(s) failed${left}\n`,
  )
  return snapshot.collectionErrors.length > 0 || leftOut.length > 0 ? ExitCode.Incomplete : ExitCode.Clean
}

/** "2 size limit, 1 timeout": what was left out, by reason, for the closing line. */
function leftOutSummary(leftOut: { reason: string; message: string }[]): string {
  const counts = new Map<string, number>()
  for (const e of leftOut) {
    const why = e.reason === 'left-out' ? e.message.split(':')[0] : e.reason
    counts.set(why, (counts.get(why) ?? 0) + 1)
  }
  return [...counts].map(([why, n]) => `${n} ${why}`).join(', ')
}
