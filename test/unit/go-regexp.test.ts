/**
 * A profile's own expressions (drop_frames) and pprof's --focus/--ignore are Go's syntax, matched in linear time:
 * patterns that make a backtracking engine take 2^n steps end at once.
 */
import { describe, expect, it } from 'vitest'
import { compileGoRegexp, GoRegexpSyntaxError } from '../../src/util/go-regexp.js'

describe('Go regular expressions', () => {
  it("reads Go's syntax: named groups, inline flags, Unicode classes; unanchored unless whole", () => {
    expect(compileGoRegexp('(?P<pkg>main)\\.').test('x main.run')).toBe(true)
    expect(compileGoRegexp('(?i)RUNTIME').test('runtime.gc')).toBe(true)
    expect(compileGoRegexp('^\\pL+$').test('héllo')).toBe(true)
    expect(compileGoRegexp('main', { whole: true }).test('main.run')).toBe(false)
    expect(compileGoRegexp('main|run', { whole: true }).test('run')).toBe(true)
  })

  it('refuses what Go refuses (look-behind, back-references) with its message', () => {
    expect(() => compileGoRegexp('(?<=a)b')).toThrow(GoRegexpSyntaxError)
    expect(() => compileGoRegexp('(a)\\1')).toThrow(/invalid escape sequence/)
  })

  it('patterns that backtrack exponentially end on a text of 100,000 characters', () => {
    const text = 'a'.repeat(100_000)
    for (const pattern of ['(a+)+b', '(a|aa)+c', '(a*)*$x', '^(a|a?)+b$', '(.*a){20}b']) expect(compileGoRegexp(pattern).test(text), pattern).toBe(false)
  })
})
