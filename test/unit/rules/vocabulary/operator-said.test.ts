import { describe, expect, it } from 'vitest'
import { sameFailure } from '../../../../src/rules/vocabulary/operator-said.js'
import { formatErrorEvent } from '../../../helpers/go-format.js'

describe('sameFailure: an Event and the reconcile error it shortened', () => {
  it('an Event FormatErrorEvent cut to its last part, or at 256 characters, is the same failure', () => {
    const chain = 'a: b: c: the frobnicator refused the request'
    expect(sameFailure(formatErrorEvent('Failed to frob', chain), chain)).toBe(true)
    const long = `failed to do it: ${'x'.repeat(300)} tail`
    expect(sameFailure(formatErrorEvent('Error', long), long)).toBe(true)
    expect(sameFailure('Failed to frob: something else entirely', chain)).toBe(false)
  })
})
