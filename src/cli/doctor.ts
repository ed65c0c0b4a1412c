import { exitCodeFor, type FailOn } from '../engine/exit-code.js'
import type { ExitCode } from '../errors.js'
import { parseDuration } from '../duration.js'
import { doctorJson } from '../render/doctor-json.js'
import { renderDoctorJunit } from '../render/doctor-junit.js'
import { renderDoctorMarkdown } from '../render/doctor-markdown.js'
import { renderDoctorText } from '../render/doctor-text.js'
import { diagnose, logRolesOf, selectRules } from '../services/doctor.js'
import { probeSigners } from '../services/signer-probes.js'
import { leadUps } from '../services/timeline.js'
import { GLOBAL_FLAGS, KUBE_FLAGS, SCOPE_FLAGS, SNAPSHOT_FLAGS, outputSpec, type FlagSpecs } from './flag-spec.js'
import type { Probe, Session, SnapshotFlags } from './session.js'

/** doctor's own flags; the oclif command and the quick start both read them. */
export const DOCTOR_FLAGS = {
  ...SCOPE_FLAGS,
  ...SNAPSHOT_FLAGS,
  output: outputSpec(['text', 'json', 'markdown', 'junit']),
  'fail-on': { type: 'string', description: 'lowest severity that makes the exit code 1', options: ['error', 'warning', 'info', 'never'], default: 'error' },
  rule: { type: 'string', description: 'run only this rule (repeatable)', multiple: true },
  'skip-rule': { type: 'string', description: 'skip this rule (repeatable)', multiple: true },
  'no-probe': { type: 'boolean', description: 'skip active probes of the remote signer (port-forwards to 8080 and 26659)' },
  'gate-timeout': { type: 'string', description: 'how long the signer gate check waits for data', default: '25s' },
} satisfies FlagSpecs

/** Everything doctor accepts on the command line, the inherited global and kube flags included. */
export const DOCTOR_COMMAND = { args: ['name'], flags: { ...GLOBAL_FLAGS, ...KUBE_FLAGS, ...DOCTOR_FLAGS } }

export interface DoctorInput extends SnapshotFlags {
  output: string
  'fail-on': string
  rule?: string[]
  'skip-rule'?: string[]
  'no-probe'?: boolean
  'gate-timeout': string
  'no-color'?: boolean
  debug?: boolean
}

/** Read, diagnose, render, and say how it went as an exit code. */
export async function runDoctor(input: DoctorInput, session: Session): Promise<ExitCode> {
  await session.setupOutput(input)
  const gateTimeoutMs = parseDuration(input['gate-timeout'], '--gate-timeout')
  const probe: Probe | undefined = input['no-probe'] ? undefined : (connection, snapshot) => probeSigners(connection, snapshot, { gateTimeoutMs })
  const rules = selectRules({ only: input.rule, skip: input['skip-rule'] })
  const snapshots = await session.snapshots(input, false, undefined, probe, logRolesOf(rules))
  const result = diagnose(snapshots, rules, input.bundle)
  const failOn = input['fail-on'] as FailOn
  const rendered = {
    text: () => renderDoctorText(result, session.palette, leadUps(snapshots, result)),
    json: () => JSON.stringify(doctorJson(result, session.version), null, 2),
    markdown: () => renderDoctorMarkdown(result),
    junit: () => renderDoctorJunit(result, failOn),
  }[input.output as 'text']()
  session.print(rendered)
  const reports = result.clusters.map((c) => c.report)
  return exitCodeFor(
    {
      findings: reports.flatMap((r) => r.findings),
      ruleErrors: reports.flatMap((r) => r.ruleErrors),
      collectionErrors: reports.flatMap((r) => r.collectionErrors),
    },
    failOn,
  )
}
