import { describe, expect, it } from 'vitest'
import { parseLabelSelector, selectorMatches } from '../../src/snapshot/label-selector.js'

const matches = (selector: string, labels: Record<string, string>) => selectorMatches(parseLabelSelector(selector), labels)

describe('label selectors as kubectl -l reads them', () => {
  const validator = { validator: 'true', 'chain-id': 'cosmoshub-4' }
  it.each([
    ['validator=true', true],
    ['validator==true', true],
    ['validator!=true', false],
    ['validator=false', false],
    ['chain-id in (theta-testnet-001, cosmoshub-4)', true],
    ['chain-id notin (cosmoshub-4)', false],
    ['validator,chain-id=cosmoshub-4', true],
    ['!upgrading', true],
    ['upgrading', false],
    ['validator=true,!chain-id', false],
  ])('%s on a validator of cosmoshub-4: %s', (selector, expected) => {
    expect(matches(selector, validator)).toBe(expected)
  })

  it('rejects what is not a selector with one clear error', () => {
    expect(() => parseLabelSelector('a=b,,c')).toThrow(/is not a label selector/)
    expect(() => parseLabelSelector('a in b')).toThrow(/is not a label selector/)
  })
})
