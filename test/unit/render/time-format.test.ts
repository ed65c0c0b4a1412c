import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/cli.js'
import { absoluteTime, timesIn } from '../../../src/render/timeline-time.js'

// Issue 32 item 9: doctor and timeline print times one way, RFC 3339 to the second, local unless --utc.
const NANOSECONDS = /\d{2}:\d{2}:\d{2}\.\d+/
const bundle = 'examples/bundles/reconcile-failing.tgz'

/** Run with the process in another time zone (Node reads TZ at each conversion), then put it back. */
function inZone(zone: string, check: () => void): void {
  const saved = process.env.TZ
  try {
    process.env.TZ = zone
    check()
  } finally {
    if (saved === undefined) delete process.env.TZ
    else process.env.TZ = saved
  }
}

describe('one time format across doctor and timeline', () => {
  it('prints local times with their offset unless asked for UTC, RFC 3339 to the second either way', () => {
    inZone('Asia/Kolkata', () => {
      expect(absoluteTime('2026-11-22T13:04:58.216000290Z', true)).toBe('2026-11-22T13:04:58Z')
      expect(absoluteTime('2026-11-22T13:04:58.216000290Z', false)).toBe('2026-11-22T18:34:58+05:30')
    })
    inZone('America/New_York', () => expect(absoluteTime('2026-11-22T03:04:58Z', false)).toBe('2026-11-21T22:04:58-05:00'))
    // At UTC the local time reads as --utc does.
    inZone('UTC', () => expect(absoluteTime('2026-11-22T13:04:58.216Z', false)).toBe('2026-11-22T13:04:58Z'))
  })

  it('rewrites the times inside a sentence, never what only looks like one', () => {
    inZone('Asia/Kolkata', () => {
      expect(timesIn('in InitializingData since 2026-11-25T00:52:02.849000084Z', true)).toBe('in InitializingData since 2026-11-25T00:52:02Z')
      expect(timesIn('since 2026-11-25T00:52:02.849000084Z (x2)', false)).toBe('since 2026-11-25T06:22:02+05:30 (x2)')
      expect(timesIn('height 2026-11-25 and 12:00:00 and 2026-13-45T99:99:99Z', true)).toBe('height 2026-11-25 and 12:00:00 and 2026-13-45T99:99:99Z')
    })
  })

  it('doctor and timeline print the same local time for the same instant, and the same UTC time with --utc', { timeout: 60_000 }, async () => {
    const env = { TZ: 'Asia/Kolkata', KUBECTL_CHAINNODE_COLUMNS: '' }
    const [doctor, doctorUtc, timeline] = await Promise.all([
      runCli(['doctor', '--bundle', bundle], { env }),
      runCli(['doctor', '--bundle', bundle, '--utc'], { env }),
      runCli(['timeline', '--all', '--bundle', bundle], { env }),
    ])
    for (const run of [doctor, doctorUtc, timeline]) expect(run.stderr).toBe('')
    // The phase began at 00:52:02.849000084Z: evidence, the sentence inside it and the timeline agree, to the second.
    expect(doctor.stdout).toContain('2026-11-25T06:22:02+05:30  operator log: updating .status.phase: in InitializingData since 2026-11-25T06:22:02+05:30')
    expect(timeline.stdout).toContain('2026-11-25T06:22:02+05:30')
    expect(doctor.stdout).toMatch(/collected 2026-11-25T\d\d:\d\d:\d\d\+05:30\./)
    expect(doctorUtc.stdout).toContain('2026-11-25T00:52:02Z  operator log: updating .status.phase: in InitializingData since 2026-11-25T00:52:02Z')
    expect(doctorUtc.stdout).not.toContain('+05:30')
    for (const run of [doctor, doctorUtc, timeline]) expect(run.stdout).not.toMatch(NANOSECONDS)
  })

  it('markdown and JUnit, read elsewhere, say UTC to the second', { timeout: 60_000 }, async () => {
    const env = { TZ: 'Asia/Kolkata' }
    const [markdown, junit] = await Promise.all([
      runCli(['doctor', '--bundle', bundle, '-o', 'markdown'], { env }),
      runCli(['doctor', '--bundle', bundle, '-o', 'junit'], { env }),
    ])
    for (const run of [markdown, junit]) {
      expect(run.stdout).toContain('since 2026-11-25T00:52:02Z')
      expect(run.stdout).not.toContain('+05:30')
      // JUnit's timestamp attribute is for machines; the text a person reads is to the second.
      expect(run.stdout.replace(/timestamp="[^"]*"/g, '')).not.toMatch(NANOSECONDS)
    }
  })
})
