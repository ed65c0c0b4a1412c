import { describe, expect, it } from 'vitest'
import { lineSplitter } from '../../src/cluster/kube-client.js'

const split = (chunks: string[]) => {
  const lines: string[] = []
  const feed = lineSplitter((line) => lines.push(line))
  for (const chunk of chunks) feed(chunk)
  return lines
}

describe('lineSplitter (followed logs, watch events)', () => {
  it('gives whole lines whatever the chunks cut, and holds the unfinished one back', () => {
    expect(split(['a\nb', 'c\n', '\nd'])).toEqual(['a', 'bc', ''])
    expect(split(['one', '', ' two', '\nthree\nfo', 'ur\n'])).toEqual(['one two', 'three', 'four'])
    expect(split(['\n\n'])).toEqual(['', ''])
  })

  it('a 16 MB line over a thousand chunks arrives whole (joined once: re-splitting per chunk copied it a thousand times)', () => {
    const chunk = 'x'.repeat(16 * 1024)
    const chunks = 1024
    let seen = 0
    const feed = lineSplitter((line) => (seen += line.length))
    for (let i = 0; i < chunks; i++) feed(chunk)
    feed('\n')
    expect(seen).toBe(chunk.length * chunks)
  })
})
