import { usageError, ExitCode } from '../util/errors.js'
import { chainProbeFor, onlyReconcilingReleases } from '../app/snapshots.js'
import { writeBundle } from '../snapshot/bundle.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, NODE_ARG, PROBE_WINDOW_FLAG, SCOPE_FLAGS, SNAPSHOT_FLAGS, type InputOf } from './flag-spec.js'
import type { Session } from '../app/session.js'
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
    'no-probe': { type: 'boolean', description: "do not ask the running nodes' own RPC (26657) and node-utils API (port-forwards) for height and peers" },
    ...PROBE_WINDOW_FLAG,
  },
})

export async function runCollect(input: InputOf<typeof COLLECT_COMMAND>, session: Session): Promise<ExitCode> {
  await session.setupOutput(input)
  if (input.context?.includes(',')) throw usageError('collect writes one bundle per cluster', 'give a single --context')
  // The chain measurement goes into the bundle, so doctor --bundle decides as the live run did.
  const [collected] = await session.snapshots(input, { chainProbe: chainProbeFor(input) })
  const snapshot = onlyReconcilingReleases(collected)
  await writeBundle(input.out, snapshot, !input['no-redact'])
  const nodes = snapshot.chainNodeRows.length
  writeStderr(
    `wrote ${input.out}: ${nodes} node(s), ${snapshot.objects.length} objects, ${snapshot.logs.length} logs, ${snapshot.redactions} value(s) redacted, ${snapshot.collectionErrors.length} read(s) failed\n`,
  )
  return snapshot.collectionErrors.length > 0 ? ExitCode.Incomplete : ExitCode.Clean
}
