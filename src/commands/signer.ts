import { Args, Flags } from '@oclif/core'
import { outputFlag } from '../base/command.js'
import { SnapshotCommand } from '../base/snapshot-command.js'
import { parseDuration } from '../duration.js'
import { renderSignerReport } from '../render/signer.js'
import { signerReport } from '../rules/signer-report.js'
import { probeSigners } from '../services/signer-probes.js'
import { SnapshotIndex } from '../snapshot/index.js'

export default class Signer extends SnapshotCommand {
  static summary = 'Check the remote signer path of a node end to end: discovery, probes, the 26659 gate, versions, legacy signer'
  static description = `Finds the signer behind the node's discovery Service, probes /livez and /readyz on port 8080 of every instance and tests the discovery gate on TCP 26659 (data must arrive; a bare connection is not a pass), each through a port-forward. Exit code 1 when a problem is found.`
  static examples = [
    '<%= config.bin %> signer validator-0 -n cosmos',
    '<%= config.bin %> signer validator-0 --no-probe',
    '<%= config.bin %> signer validator-0 --gate-timeout 10s -o json',
    '<%= config.bin %> signer val-0 --bundle examples/bundles/signer-discovery-timeout.tgz',
  ]
  static args = { name: Args.string({ description: 'ChainNode name', required: true }) }
  static flags = {
    ...SnapshotCommand.snapshotFlags,
    output: outputFlag(['text', 'json']),
    'no-probe': Flags.boolean({ description: 'skip the active probes (port-forwards); report what the cluster records' }),
    'gate-timeout': Flags.string({ description: 'how long the gate check waits for data (the gate itself waits 25s)', default: '25s' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Signer)
    await this.setupOutput(flags)
    const gateTimeoutMs = parseDuration(flags['gate-timeout'], '--gate-timeout')
    const probe =
      flags['no-probe'] || flags.bundle
        ? undefined
        : (connection: Parameters<typeof probeSigners>[0], snapshot: Parameters<typeof probeSigners>[1]) =>
            probeSigners(connection, snapshot, { gateTimeoutMs })
    const [snapshot] = await this.snapshots({ ...flags, name: args.name }, true, 'all', probe)
    const index = new SnapshotIndex(snapshot)
    const report = signerReport(index, index.chainNodes()[0])
    this.print(
      flags.output === 'json' ? JSON.stringify({ schemaVersion: 1, kind: 'SignerReport', ...report }, null, 2) : renderSignerReport(report, this.palette),
    )
    process.exitCode = report.problems.length ? 1 : snapshot.collectionErrors.length ? 3 : 0
  }
}
