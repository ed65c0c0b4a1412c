import { describe, expect, it } from 'vitest'
import { closestTo, didYouMean } from '../../src/util/suggest.js'
import { flagsAfterCommand, unknownCommandLine } from '../../src/entry/unknown-command.js'
import { unknownRule } from '../../src/rules/index.js'

// Issue 40 item 8: tired mistakes get "did you mean" and the line as it should be typed.
describe('did you mean', () => {
  it('finds the nearest word within a few edits, or one the typed word begins, and nothing far off', () => {
    expect(closestTo('--namespce', ['--namespace', '--name', '--context'])).toBe('--namespace')
    expect(closestTo('not-synching', ['not-syncing', 'node-error'])).toBe('not-syncing')
    expect(closestTo('stat', ['status', 'signer'])).toBe('status')
    expect(closestTo('zzzzzz', ['status', 'doctor'])).toBeUndefined()
    expect(didYouMean('sc-validatrs', ['default', 'sc-validators'])).toBe('did you mean "sc-validators"? ')
    expect(didYouMean('qqq', ['default'])).toBe('')
  })

  it('a rule id that is none names the nearest (rules explain, --rule, --skip-rule)', () => {
    expect(unknownRule('not-synching').message).toBe('unknown rule "not-synching"')
    expect(unknownRule('not-synching').hint).toBe('did you mean "not-syncing"? list the rules with: chainnode rules')
    expect(unknownRule('no-such-rule-at-all').hint).toBe('list the rules with: chainnode rules')
  })

  it('a mistyped command still gets its suggestion', () => {
    expect(unknownCommandLine('doctr', ['doctor', 'status'])).toBe('error: unknown command "doctr"; did you mean "doctor"? See chainnode --help\n')
  })
})

describe('a flag before the command', () => {
  const commands = {
    status: { flags: { namespace: { char: 'n', type: 'option' }, debug: { type: 'boolean' }, 'all-namespaces': { char: 'A', type: 'boolean' } } },
    doctor: { flags: { namespace: { char: 'n', type: 'option' } } },
    rules: {},
    'rules:explain': {},
  }

  it('is answered with the line as it should be typed, flags after the command', () => {
    expect(flagsAfterCommand(['-n', 'sc-validators', 'status'], commands)).toBe('chainnode status -n sc-validators')
    expect(flagsAfterCommand(['--debug', '-A', 'doctor', 'val-1'], commands)).toBe('chainnode doctor val-1 --debug -A')
    expect(flagsAfterCommand(['--namespace=x', 'rules', 'explain', 'image-pull'], commands)).toBe('chainnode rules explain image-pull --namespace=x')
  })

  it("reads a flag's value as its value, not as a command (a namespace may be called status)", () => {
    expect(flagsAfterCommand(['-n', 'status', 'doctor', 'x'], commands)).toBe('chainnode doctor x -n status')
    expect(flagsAfterCommand(['-n', 'status'], commands)).toBeUndefined()
    expect(flagsAfterCommand(['-n', "it's", 'status'], commands)).toBe(`chainnode status -n 'it'\\''s'`)
  })

  it('says nothing when there is no command on the line, or it comes first', () => {
    expect(flagsAfterCommand(['-n', 'ns', 'nosuch'], commands)).toBeUndefined()
    expect(flagsAfterCommand(['status', '-n', 'ns'], commands)).toBeUndefined()
  })
})
