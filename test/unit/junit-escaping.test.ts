import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { renderDoctorJunit } from '../../src/render/doctor-junit.js'

const result = (collectedAt: string, text: string) =>
  ({
    clusters: [
      {
        context: `ctx${text}`,
        server: 's',
        collectedAt,
        report: {
          nodes: [{ node: { namespace: 'ns', name: `n${text}` }, phase: 'Running', rulesChecked: ['image-pull'] }],
          findings: [
            {
              ruleId: 'image-pull',
              severity: 'error',
              node: { namespace: 'ns', name: `n${text}` },
              subject: { kind: 'Pod', namespace: 'ns', name: 'p' },
              summary: `summary ${text}`,
              cause: `cause ${text}`,
              action: 'act',
              evidence: [{ kind: 'event', source: 'Event', text: `evidence ${text}` }],
              data: {},
            },
          ],
          ruleErrors: [],
          collectionErrors: [],
        },
      },
    ],
    rulesChecked: ['image-pull'],
  }) as never

describe('JUnit escaped by construction', () => {
  it('a quote in collectedAt cannot forge a testcase', () => {
    const xml = renderDoctorJunit(result('2026"><testcase name="forged"/><x a="', 'x'), 'warning')
    expect(XMLValidator.validate(xml)).toBe(true)
    expect(xml).not.toContain('<testcase name="forged"')
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml)
    expect(parsed.testsuites.testsuite['@_timestamp']).toBe('2026"><testcase name="forged"/><x a="')
  })

  it('U+FFFE, U+FFFF and lone surrogates in a message leave the XML well-formed', () => {
    const xml = renderDoctorJunit(result('2026-11-22T10:00:00Z', 'a\ufffeb\uffffc\ud800d\udc00e\u0001f 🌍'), 'warning')
    expect(XMLValidator.validate(xml)).toBe(true)
    expect(xml).toContain('abcdef 🌍')
  })
})
