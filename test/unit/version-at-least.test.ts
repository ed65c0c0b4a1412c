import { describe, expect, it } from 'vitest'
import { versionAtLeast } from '../../src/analysis/versions.js'

describe('versionAtLeast', () => {
  it.each([
    ['3.1.0', '3.1.0', true],
    ['v3.1.0', '3.1.0', true],
    ['3.2.0', '3.1.0', true],
    ['3.0.9', '3.1.0', false],
    ['10.0.0', '9.0.0', true],
    ['3.1.0-rc.1', '3.1.0', false],
    ['3.1.1-rc.1', '3.1.0', true],
    ['3.1.0+build.5', '3.1.0', true],
  ])('%s against a minimum of %s is %s', (tag, minimum, expected) => {
    expect(versionAtLeast(tag, minimum)).toBe(expected)
  })

  it.each(['latest', 'edge', 'sha-1234abc', '4.0', undefined])('%s is not a version', (tag) => {
    expect(versionAtLeast(tag, '3.1.0')).toBe('unknown')
  })
})
