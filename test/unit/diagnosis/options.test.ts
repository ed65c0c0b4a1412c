import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { diagnosisOptions } from '../../../src/app/diagnosis-options.js'
import { DOCTOR_COMMAND } from '../../../src/commands/doctor.js'
import { SERVE_COMMAND } from '../../../src/commands/serve.js'
import { TIMELINE_COMMAND } from '../../../src/commands/timeline.js'
import { PROBE_AND_RULE_SETTING_FLAGS } from '../../../src/commands/diagnosis-flags.js'
import { flagValues } from '../../../src/commands/flag-spec.js'
import { ROOT } from '../../helpers/cli.js'

/** doctor's flags that are about one run's output or input, not about what a diagnosis finds; each with why serve lacks it. */
const DOCTOR_ONLY: Record<string, string> = {
  output: 'serve answers in Prometheus text and /report JSON',
  'fail-on': 'serve has no exit code to set',
  utc: 'serve prints no times',
  bundle: 'serve watches a live cluster',
  'no-redact': '/report is served over the network: secrets stay masked',
  timeout: 'serve has --interval; a cycle that cannot read keeps the last readings',
}

const BASE = { 'probe-window': 3000, 'gate-timeout': 25_000 }

describe('one options path: serve takes every diagnosis flag doctor takes, from the same definition', () => {
  it('every flag of doctor that decides what is found is a flag of serve, the same spec object', () => {
    const doctor = DOCTOR_COMMAND.flags as Record<string, unknown>
    const serve = SERVE_COMMAND.flags as Record<string, unknown>
    const missing = Object.keys(doctor).filter((flag) => !(flag in DOCTOR_ONLY) && doctor[flag] !== serve[flag])
    expect(missing).toEqual([])
    // The list of exceptions stays true: each is a flag doctor has.
    for (const flag of Object.keys(DOCTOR_ONLY)) expect(doctor).toHaveProperty([flag])
  })

  it('timeline takes doctor probes and rule settings from the same definition, so it places doctor findings', () => {
    const timeline = TIMELINE_COMMAND.flags as Record<string, unknown>
    const doctor = DOCTOR_COMMAND.flags as Record<string, unknown>
    for (const flag of Object.keys(PROBE_AND_RULE_SETTING_FLAGS)) {
      expect(timeline[flag], flag).toBe(doctor[flag])
    }
  })

  it('turns the flags into values once: rule settings (the missed-blocks thresholds serve once left out), probes, milliseconds', () => {
    const options = diagnosisOptions({
      ...BASE,
      'missed-blocks-warning': 3,
      'missed-blocks-error': 9,
      'phase-timeout': [[['Starting', 90 * 60_000]]],
      'probe-window': 5000,
      'gate-timeout': 10_000,
    })
    expect(options.settings).toEqual({ phaseTimeoutsMs: { Starting: 90 * 60_000 }, missedBlocks: { warning: 3, error: 9 } })
    expect(options.gateTimeoutMs).toBe(10_000)
    expect(options.chainProbe?.windowMs).toBe(5000)
    expect(options.probe).toBeTypeOf('function')
    expect(options.probed).toBe(true)
    expect(options.logRoles.has('operator')).toBe(true)
    const unprobed = diagnosisOptions({ ...BASE, 'no-probe': true, rule: ['phase-stuck'] })
    expect([unprobed.probed, unprobed.probe, unprobed.chainProbe]).toEqual([false, undefined, undefined])
    expect(unprobed.rules.map((r) => r.id)).toEqual(['phase-stuck'])
  })

  it('refuses what doctor refuses, for every command that takes the flags', () => {
    expect(() => diagnosisOptions({ ...BASE, 'missed-blocks-warning': 30, 'missed-blocks-error': 9 })).toThrow(/above --missed-blocks-error/)
    expect(() => diagnosisOptions({ ...BASE, rule: ['phase-stuck'], 'skip-rule': ['phase-stuck'] })).toThrow(/leave no rule/)
    // Durations are values by the time a runner has them: the command line refuses a bad one, --no-probe or not.
    for (const command of [DOCTOR_COMMAND, SERVE_COMMAND, TIMELINE_COMMAND])
      expect(() => flagValues(command, { 'no-probe': true, 'probe-window': 'soon' })).toThrow(/--probe-window "soon" is not a duration/)
  })
})

describe('no command module imports another', () => {
  it('commands/ imports only the shared flag definitions and the registry from its own folder', () => {
    const dir = path.join(ROOT, 'src', 'commands')
    const shared = new Set(['flag-spec', 'diagnosis-flags', 'session'])
    const wrong: string[] = []
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(path.join(dir, file), 'utf8')
      for (const match of text.matchAll(/^import (type )?[^;]*? from '\.\/([a-z-]+)\.js'/gm)) {
        const typeOnly = Boolean(match[1])
        if (!shared.has(match[2]) && !(file === 'index.ts' && typeOnly)) wrong.push(`${file} -> ${match[2]}`)
      }
    }
    expect(wrong).toEqual([])
  })
})
