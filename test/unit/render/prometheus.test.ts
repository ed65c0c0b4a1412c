import { describe, expect, it } from 'vitest'
import { escapeHelp, escapeLabelValue, formatValue, renderExposition, type MetricFamily } from '../../../src/render/prometheus.js'

describe('Prometheus text exposition', () => {
  it('writes HELP, TYPE and one line per sample, labels in the order given', () => {
    const families: MetricFamily[] = [
      { name: 'chainnode_height', help: 'Latest block height.', type: 'gauge', samples: [{ labels: { namespace: 'a', chainnode: 'n-0' }, value: 42 }] },
      { name: 'chainnode_api_requests_total', help: 'API requests.', type: 'counter', samples: [{ value: 7 }] },
    ]
    expect(renderExposition(families)).toBe(
      [
        '# HELP chainnode_height Latest block height.',
        '# TYPE chainnode_height gauge',
        'chainnode_height{namespace="a",chainnode="n-0"} 42',
        '# HELP chainnode_api_requests_total API requests.',
        '# TYPE chainnode_api_requests_total counter',
        'chainnode_api_requests_total 7',
        '',
      ].join('\n'),
    )
  })

  it('escapes backslash, double quote and line feed in label values, and only backslash and line feed in HELP', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd')
    expect(escapeHelp('a\\b"c\nd')).toBe('a\\\\b"c\\nd')
    const text = renderExposition([{ name: 'm', help: 'x\ny', type: 'gauge', samples: [{ labels: { l: '"}\n# TYPE evil counter' }, value: 1 }] }])
    // A hostile value stays inside its quotes: one sample line, no injected comment line.
    expect(text.split('\n').filter((line) => line.startsWith('# TYPE'))).toEqual(['# TYPE m gauge'])
    expect(text).toContain('m{l="\\"}\\n# TYPE evil counter"} 1\n')
    expect(text).toContain('# HELP m x\\ny\n')
  })

  it('writes Go float spellings for the special values', () => {
    expect([NaN, Infinity, -Infinity, 0.5, -3, 1e21].map(formatValue)).toEqual(['NaN', '+Inf', '-Inf', '0.5', '-3', '1e+21'])
  })

  it('keeps only the first of two samples with the same labels (Prometheus would reject the scrape)', () => {
    const text = renderExposition([
      {
        name: 'chainnode_finding',
        help: 'h',
        type: 'gauge',
        samples: [
          { labels: { rule: 'a' }, value: 1 },
          { labels: { rule: 'a' }, value: 2 },
          { labels: { rule: 'b' }, value: 1 },
        ],
      },
    ])
    expect(text.split('\n').filter((line) => line.startsWith('chainnode_finding'))).toEqual(['chainnode_finding{rule="a"} 1', 'chainnode_finding{rule="b"} 1'])
  })

  it('writes HELP and TYPE of a family with no sample (a finding that cleared leaves no series)', () => {
    expect(renderExposition([{ name: 'chainnode_finding', help: 'h', type: 'gauge', samples: [] }])).toBe(
      '# HELP chainnode_finding h\n# TYPE chainnode_finding gauge\n',
    )
  })

  it('refuses names the format does not allow, and a family written twice', () => {
    expect(() => renderExposition([{ name: '1bad', help: '', type: 'gauge', samples: [] }])).toThrow(/metric name/)
    expect(() => renderExposition([{ name: 'm', help: '', type: 'gauge', samples: [{ labels: { 'bad-name': 'x' }, value: 1 }] }])).toThrow(/label name/)
    expect(() => renderExposition([{ name: 'm', help: '', type: 'gauge', samples: [{ labels: { __name__: 'x' }, value: 1 }] }])).toThrow(/label name/)
    const family: MetricFamily = { name: 'm', help: '', type: 'gauge', samples: [] }
    expect(() => renderExposition([family, family])).toThrow(/twice/)
  })
})
