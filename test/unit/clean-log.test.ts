import { describe, expect, it } from 'vitest'
import { cleanLog, MAX_LINE_CHARS } from '../../src/cluster/logs.js'

describe('cleanLog', () => {
  it('gives clean text back as it is', () => {
    const text = '2026-11-22T10:00:00Z {"level":"info","msg":"committed state"}\n2026-11-22T10:00:01Z ok\n'
    expect(cleanLog(text)).toBe(text)
  })

  it('drops carriage returns at line ends and replaces other control characters', () => {
    expect(cleanLog('a\r\nb\u0007c\u001b[31mred\n')).toBe('a\nb�c�[31mred\n')
  })

  it('cuts lines longer than the limit and says by how much', () => {
    const long = 'x'.repeat(MAX_LINE_CHARS + 10)
    const [first, second] = cleanLog(`${long}\nshort`).split('\n')
    expect(first).toBe(`${'x'.repeat(MAX_LINE_CHARS)}… [10 more characters]`)
    expect(second).toBe('short')
  })

  it('keeps a line of exactly the limit', () => {
    const edge = 'y'.repeat(MAX_LINE_CHARS)
    expect(cleanLog(`${edge}\n${edge}`)).toBe(`${edge}\n${edge}`)
  })
})
