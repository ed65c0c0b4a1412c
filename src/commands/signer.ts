import { ExitCode } from '../util/errors.js'
import { renderSignerReport } from '../render/signer.js'
import { signerReport } from '../analysis/signer-report.js'
import { probeSigners } from '../app/signer-probes.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, outputSpec, PROBE_FLAGS, REQUIRED_NODE_ARG, SNAPSHOT_FLAGS, type InputOf } from './flag-spec.js'
import type { Session } from './session.js'
import type { Probe } from '../app/snapshot-source.js'
import { outputFormatOf } from '../util/output.js'

export const SIGNER_COMMAND = defineCommand({
  summary: 'Check the remote signer path of a node end to end: discovery, probes, the 26659 gate, versions, legacy signer',
  description: `Finds the signer behind the node's discovery Service, probes /livez and /readyz on port 8080 of every instance (not on the 3.x line, whose signer has no HTTP health endpoints) and tests the discovery gate on TCP 26659 (data must arrive; a bare connection is not a pass), each through a port-forward. Exit code 1 when a problem is found.`,
  examples: [
    '<%= config.bin %> signer validator-0 -n cosmos',
    '<%= config.bin %> signer validator-0 --no-probe',
    '<%= config.bin %> signer validator-0 --gate-timeout 10s -o json',
    '<%= config.bin %> signer val-0 --bundle examples/bundles/signer-discovery-timeout.tgz',
  ],

  args: REQUIRED_NODE_ARG,
  flags: { ...GLOBAL_FLAGS, ...KUBE_FLAGS, ...SNAPSHOT_FLAGS, output: outputSpec(['text', 'json']), ...PROBE_FLAGS },
})

export async function runSigner(input: InputOf<typeof SIGNER_COMMAND>, session: Session): Promise<ExitCode> {
  const gateTimeoutMs = input['gate-timeout']
  const probe: Probe | undefined =
    input['no-probe'] || input.bundle ? undefined : (connection, snapshot) => probeSigners(connection, snapshot, { gateTimeoutMs })
  const [snapshot] = await session.reader.snapshots(input, { nameRequired: true, logs: 'all', probe })
  const index = new SnapshotIndex(snapshot)
  const report = signerReport(index, index.chainNodes()[0])
  session.output.print(
    input.output === 'json'
      ? JSON.stringify({ schemaVersion: 1, kind: 'SignerReport', ...report }, null, 2)
      : renderSignerReport(report, session.output.palette),
    outputFormatOf(input.output),
  )
  return report.problems.length ? ExitCode.Findings : snapshot.collectionErrors.length ? ExitCode.Incomplete : ExitCode.Clean
}
