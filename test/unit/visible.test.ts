import { diagnosisOf } from '../../src/engine/diagnosis.js'
import { describe, expect, it } from 'vitest'
import { renderDoctorMarkdown } from '../../src/render/doctor-markdown.js'
import { renderEventsTable } from '../../src/render/events.js'
import { describePod } from '../../src/render/describe.js'
import { visible } from '../../src/render/visible.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import { ESCAPES, smallSnapshot } from '../helpers/hostile.js'

// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

describe('visible: control characters shown, as kubectl does since CVE-2021-25743', () => {
  it.each([
    ['an escape sequence', '\u001b[31mred\u001b[0m', '^[[31mred^[[0m'],
    ['a title change ended by BEL', '\u001b]0;pwned\u0007', '^[]0;pwned^G'],
    ['a carriage return that would overwrite the line', 'ok\rFAIL', 'ok\\rFAIL'],
    ['DEL and NUL', 'a\u007fb\u0000c', 'a^?b^@c'],
    ['a one-byte CSI (C1)', 'x\u009b2Jy', 'x\\u009b2Jy'],
    ['a right-to-left override', 'abc\u202edef', 'abc\\u202edef'],
  ])('%s', (_name, input, shown) => {
    expect(visible(input)).toBe(shown)
  })

  it('keeps plain text, tabs, newlines and non-ASCII text as they are', () => {
    for (const text of ['plain', 'a\tb\nc', 'héllo 🌍 日本', '']) expect(visible(text)).toBe(text)
    expect(visible(undefined)).toBe('')
    expect(visible(42)).toBe('42')
  })

  it('is applied by the renderers: events table, describe (annotations, termination message), Markdown', () => {
    const index = new SnapshotIndex(smallSnapshot())
    const now = Date.parse('2026-11-22T10:00:00Z')
    const table = renderEventsTable(index.list('Event'), now, true)
    expect(table).not.toMatch(RAW)
    expect(table).toContain(visible(ESCAPES))
    const pod = describePod(index, index.list('Pod')[0], now)
    expect(pod).not.toMatch(RAW)
    expect(pod).toContain(`died ${visible(ESCAPES)}`)
    const report = { nodes: [{ node: { namespace: 'ns', name: `n${ESCAPES}` }, phase: 'Running' }], findings: [], ruleErrors: [], collectionErrors: [] }
    const markdown = renderDoctorMarkdown({
      clusters: [
        {
          context: `ctx${ESCAPES}`,
          server: 's',
          collectedAt: 'now',
          report,
          diagnosis: diagnosisOf(report as never, new Map()),
        },
      ],
      rulesChecked: [],
    } as never)
    expect(markdown).not.toMatch(RAW)
    expect(markdown).toContain(`ctx${visible(ESCAPES)}`)
  })
})
