import { Args, Flags } from '@oclif/core'
import { outputFlag } from '../base/command.js'
import { scopeFlags } from '../base/scope.js'
import { SnapshotCommand } from '../base/snapshot-command.js'
import { exitCodeFor, type FailOn } from '../engine/exit-code.js'
import { doctorJson } from '../render/doctor-json.js'
import { renderDoctorJunit } from '../render/doctor-junit.js'
import { renderDoctorMarkdown } from '../render/doctor-markdown.js'
import { renderDoctorText } from '../render/doctor-text.js'
import { diagnose } from '../services/doctor.js'
import { probeSigners } from '../services/signer-probes.js'
import type { Connection } from '../base/kube-command.js'
import { parseDuration } from '../duration.js'
import type { Snapshot } from '../snapshot/types.js'

export default class Doctor extends SnapshotCommand {
  static summary = 'Run the whole diagnostic procedure and say what is wrong, why, and what to do'
  static description = `Reads the ChainNode, its Pod, Events, logs, storage, signer and the operator in one pass, then matches every rule of the symptom catalogue (chainnode rules).

Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or input error, 3 incomplete (unreachable, forbidden or timed-out reads).`
  static examples = [
    '<%= config.bin %> doctor fullnode-0 -n cosmos',
    '<%= config.bin %> doctor --set cosmoshub -n cosmos -o markdown',
    '<%= config.bin %> doctor -A --fail-on warning -o junit > doctor.xml',
    '<%= config.bin %> doctor --bundle incident.tgz',
  ]
  static args = { name: Args.string({ description: 'ChainNode name' }) }
  static flags = {
    ...scopeFlags,
    ...SnapshotCommand.snapshotFlags,
    output: outputFlag(['text', 'json', 'markdown', 'junit']),
    'fail-on': Flags.string({ description: 'lowest severity that makes the exit code 1', options: ['error', 'warning', 'info', 'never'], default: 'error' }),
    rule: Flags.string({ description: 'run only this rule (repeatable)', multiple: true }),
    'skip-rule': Flags.string({ description: 'skip this rule (repeatable)', multiple: true }),
    'no-probe': Flags.boolean({ description: 'skip active probes of the remote signer (port-forwards to 8080 and 26659)' }),
    'gate-timeout': Flags.string({ description: 'how long the signer gate check waits for data', default: '25s' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Doctor)
    await this.setupOutput(flags)
    const gateTimeoutMs = parseDuration(flags['gate-timeout'], '--gate-timeout')
    const probe = flags['no-probe'] ? undefined : (connection: Connection, snapshot: Snapshot) => probeSigners(connection, snapshot, { gateTimeoutMs })
    const snapshots = await this.snapshots({ ...flags, name: args.name }, false, undefined, probe)
    const result = diagnose(snapshots, { only: flags.rule, skip: flags['skip-rule'] }, flags.bundle)
    const failOn = flags['fail-on'] as FailOn
    const rendered = {
      text: () => renderDoctorText(result, this.palette),
      json: () => JSON.stringify(doctorJson(result, this.config.version), null, 2),
      markdown: () => renderDoctorMarkdown(result),
      junit: () => renderDoctorJunit(result, failOn),
    }[flags.output as 'text']()
    this.print(rendered)
    const reports = result.clusters.map((c) => c.report)
    process.exitCode = exitCodeFor(
      {
        findings: reports.flatMap((r) => r.findings),
        ruleErrors: reports.flatMap((r) => r.ruleErrors),
        collectionErrors: reports.flatMap((r) => r.collectionErrors),
      },
      failOn,
    )
  }
}
