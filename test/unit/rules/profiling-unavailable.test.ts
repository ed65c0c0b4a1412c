import { describe, expect, it } from 'vitest'
import { runRule, useBundles } from '../../helpers/bundles.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('profiling-unavailable')

describe('profiling-unavailable', () => {
  it("ignores a port conflict of node-utils' previous run when the current run holds the port", () => {
    expect(runRule(load('profiling-unavailable'), 'profiling-unavailable')).toHaveLength(1)
    const s = load('profiling-unavailable')
    const current = s.logs.find((l) => l.pod === 'prof-0' && l.container === 'node-utils' && !l.previous)!
    s.logs.push({ ...current, previous: true })
    current.text = current.text.replace(/level=warning msg="profiling disabled[^\n]*/, 'level=info msg="pprof listening on 127.0.0.1:6666"')
    expect(current.text).not.toMatch(/profiling disabled/)
    expect(runRule(s, 'profiling-unavailable')).toEqual([])
  })
})
