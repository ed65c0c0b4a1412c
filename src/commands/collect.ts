import { Args, Flags } from '@oclif/core'
import { scopeFlags, SnapshotCommand } from '../base/snapshot-command.js'
import { usageError } from '../errors.js'
import { writeBundle } from '../snapshot/bundle.js'
import { CHAIN_PROBE_TIMEOUT_MS } from '../cli/doctor.js'
import { parseDuration } from '../duration.js'

export default class Collect extends SnapshotCommand {
  static summary = 'Save everything about nodes into a support bundle that doctor and the other commands can read offline'
  static description =
    'Secret objects are never read; tokens, keys and mnemonics in logs, env values and annotations are masked unless --no-redact is given. The layout is documented in the README.'
  static examples = ['<%= config.bin %> collect fullnode-0 -n cosmos --out incident.tgz', '<%= config.bin %> collect --all -n cosmos --out ./bundle-dir']
  static args = { name: Args.string({ description: 'ChainNode name' }) }
  static flags = {
    ...scopeFlags,
    'no-redact': SnapshotCommand.snapshotFlags['no-redact'],
    tail: SnapshotCommand.snapshotFlags.tail,
    out: Flags.string({ description: 'FILE.tgz or a new directory', required: true }),
    'no-probe': Flags.boolean({ description: "do not ask the running nodes' own RPC (26657) and node-utils API (port-forwards) for height and peers" }),
    'probe-window': Flags.string({ description: 'when the last block is old, read the height again this long after the first reading', default: '3s' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Collect)
    await this.setupOutput(flags)
    if (flags.context?.includes(',')) throw usageError('collect writes one bundle per cluster', 'give a single --context')
    // The chain measurement goes into the bundle, so doctor --bundle decides as the live run did.
    const windowMs = parseDuration(flags['probe-window'], '--probe-window')
    const chainProbe = flags['no-probe'] ? undefined : { windowMs, timeoutMs: CHAIN_PROBE_TIMEOUT_MS }
    const [snapshot] = await this.snapshots({ ...flags, name: args.name }, false, undefined, undefined, undefined, chainProbe)
    await writeBundle(flags.out, snapshot, !flags['no-redact'])
    const nodes = snapshot.chainNodeRows.length
    process.stderr.write(
      `wrote ${flags.out}: ${nodes} node(s), ${snapshot.objects.length} objects, ${snapshot.logs.length} logs, ${snapshot.redactions} value(s) redacted, ${snapshot.collectionErrors.length} read(s) failed\n`,
    )
    if (snapshot.collectionErrors.length > 0) process.exitCode = 3
  }
}
