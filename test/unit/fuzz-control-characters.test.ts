import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { diagnose, selectRules } from '../../src/app/doctor.js'
import { decodeProfile } from '../../src/pprof/decode.js'
import { renderTop } from '../../src/pprof/format.js'
import { topTable } from '../../src/pprof/top.js'
import { renderDoctorJunit } from '../../src/render/doctor-junit.js'
import { renderDoctorMarkdown } from '../../src/render/doctor-markdown.js'
import { renderDoctorText } from '../../src/render/doctor-text.js'
import { plainPalette } from '../../src/render/palette.js'
import type { Snapshot } from '../../src/snapshot/types.js'
import { guarded } from '../../src/util/output.js'
import { editable } from '../helpers/bundles.js'
import { fuzzLimits, RAW_CONTROL as RAW, TERMINAL_CONTROLS as CONTROLS } from '../helpers/fuzz.js'
import { smallSnapshot } from '../helpers/hostile.js'
import { buildProfile } from './pprof/build-profile.js'

/*
 * Control characters in every field of the file kinds a stranger sends (objects, Events, logs, probes.json,
 * profiles), generated: text and Markdown show none raw, JUnit stays well-formed. Each property stops after its
 * time budget (test/helpers/fuzz.ts); FUZZ_SCALE=20 hunts longer.
 */
const limits = (runs: number) => fuzzLimits(runs, 6_000)

describe('fuzz: control characters in every field reach no output raw', () => {
  const rules = selectRules({})
  const control = fc.array(fc.oneof(fc.constantFrom(...CONTROLS), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''))

  it('objects, Events, logs and probes.json: text and Markdown guarded, JUnit well-formed enough to parse', async () => {
    const { XMLValidator } = await import('fast-xml-parser')
    let cases = 0
    fc.assert(
      fc.property(fc.array(control, { minLength: 12, maxLength: 12 }), (f) => {
        cases++
        const snapshot: Snapshot = smallSnapshot()
        const [node, pod, event] = editable(snapshot)
        node.metadata.labels = { 'worker-name': f[0] }
        node.metadata.annotations = { [f[1]]: f[2] }
        node.status = { phase: f[3], message: f[4] }
        pod.status!.containerStatuses[0].state.terminated.message = f[5]
        event.reason = f[6]
        event.message = f[7]
        snapshot.logs[0].text = `${f[8]}\n${f[9]}\n`
        snapshot.probes = [{ kind: 'chain', namespace: 'ns', pod: 'node-0', target: f[10], ok: false, detail: f[11], at: snapshot.collectedAt }]
        snapshot.source = { context: f[0], server: f[1] }
        const result = diagnose([snapshot], rules, 'fuzz')
        for (const text of [renderDoctorText(result, plainPalette), renderDoctorMarkdown(result)]) expect(guarded(text, 'text', false)).not.toMatch(RAW)
        const junit = guarded(renderDoctorJunit(result, 'warning'), 'xml')
        expect(junit).not.toMatch(RAW)
        expect(XMLValidator.validate(junit)).toBe(true)
      }),
      limits(300),
    )
    expect(cases).toBeGreaterThan(20)
  })

  it('profiles: function, file, sample-type and mapping names', () => {
    let cases = 0
    fc.assert(
      fc.property(fc.array(control, { minLength: 5, maxLength: 5 }), (f) => {
        cases++
        const profile = buildProfile({
          sampleTypes: [
            [`samples${f[0]}`, 'count'],
            [`cpu${f[1]}`, 'nanoseconds'],
          ],
          locations: { 1: [`main.${f[2]}`], 2: [`main.${f[3]}`] },
          samples: [
            { stack: [1, 2], values: [2, 20_000_000] },
            { stack: [2], values: [1, 10_000_000] },
          ],
          mappingFile: f[4],
        })
        expect(guarded(renderTop(topTable(decodeProfile(profile), {})), 'text', false)).not.toMatch(RAW)
      }),
      limits(500),
    )
    expect(cases).toBeGreaterThan(20)
  })
})
