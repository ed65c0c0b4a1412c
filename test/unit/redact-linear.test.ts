import { describe, expect, it } from 'vitest'
import { MASK, REDACTION_PATTERNS, Redactor } from '../../src/snapshot/redact.js'

/**
 * Redaction runs over every log of every command, so a few kilobytes packed (a megabyte of log) must not be
 * able to make it backtrack for seconds or overflow a stack. The patterns are linted for the shapes that
 * backtrack, and the adversarial logs of issue 31 go through; bench/redact.ts measures time against input size.
 */

/**
 * Quantifiers that repeat something that itself repeats without bound (or the reverse), and V8's X{n,},
 * which overflows its backtracking stack on a long run. A fixed count of a group whose parts are bounded,
 * (?:[ \t]{1,64}[a-z]{3,8}){11}, is bounded work per start and allowed.
 */
function lint(source: string): string[] {
  const problems: string[] = []
  const groups: { quantified: boolean; unbounded: boolean }[] = [{ quantified: false, unbounded: false }]
  const quantifierAt = (i: number) => /^(?:[*+?]|\{\d+(?:,\d*)?\})/.exec(source.slice(i))?.[0]
  const unbounded = (quantifier: string) => quantifier === '*' || quantifier === '+' || /,\}$/.test(quantifier)
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    if (char === '\\') {
      i++
      continue
    }
    if (char === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++
      continue
    }
    if (char === '(') {
      groups.push({ quantified: false, unbounded: false })
      continue
    }
    const quantifier = quantifierAt(i)
    if (quantifier) {
      if (/^\{\d+,\}$/.test(quantifier)) problems.push(`${quantifier} at ${i}`)
      const group = groups[groups.length - 1]
      group.quantified ||= quantifier !== '?'
      group.unbounded ||= unbounded(quantifier)
      i += quantifier.length - 1
      continue
    }
    if (char === ')') {
      const group = groups.pop()!
      const after = quantifierAt(i + 1)
      if (after && after !== '?' && (group.unbounded || (group.quantified && unbounded(after))))
        problems.push(`a repeated group with a quantifier inside, at ${i}`)
      const parent = groups[groups.length - 1]
      parent.quantified ||= group.quantified
      parent.unbounded ||= group.unbounded
    }
  }
  return problems
}

const MB = 1_000_000
const repeated = (line: string, bytes: number) => line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes)

describe('redaction in linear time', () => {
  it('the linter finds the shapes it looks for', () => {
    expect(lint('(?:[a-z]{3,8}[ \\t]+){11,}')).toHaveLength(2)
    expect(lint('(a+)+')).toHaveLength(1)
    expect(lint('x{8}x*')).toEqual([])
    expect(lint('(?:[ \\t]{1,64}[a-z]{3,8}){11}')).toEqual([])
    expect(lint('(?:[ \\t]+[a-z]{3,8}){11}')).toHaveLength(1)
  })

  it.each(REDACTION_PATTERNS().map((pattern) => [pattern.source]))('%s has no nested or open-ended counted quantifier', (source) => {
    expect(lint(source)).toEqual([])
  })

  it.each([
    ['many unclosed "priv_key": {', repeated('{"msg":"x","priv_key": {"type":"t",\n', MB)],
    ['many unmatched PEM BEGIN lines', repeated('-----BEGIN RSA PRIVATE KEY-----\nnot base64 here!\n', MB)],
    ['token= keys', repeated('token=a authtoken: b secret=c ', MB)],
    ['one long word', repeated('tokentoken', MB)],
    ['JWT look-alikes without dots', repeated('eyJ-eyJabc-', MB)],
    ['URL userinfo look-alikes', repeated('https://u:u:u:u:u:u ', MB)],
  ])('a megabyte of %s is masked in one pass', (_name, text) => {
    const out = new Redactor().text(text)
    expect(out.length).toBeGreaterThan(0)
  })

  it('a 20 MB log of lowercase words and a 10 MB token do not overflow a stack', () => {
    const words = repeated('alpha bravo charlie delta echo foxtrot golf hotel ', 20 * MB)
    expect(new Redactor().text(words)).toBe(words)
    const phrase = 'abandon ability able about above absent absorb abstract '.repeat(40_000).trim()
    expect(new Redactor().text(`x ${phrase}`)).toBe(`x ${MASK}`)
    expect(new Redactor().text(`t hvs.${'a'.repeat(10 * MB)} u`)).toBe(`t ${MASK} u`)
    expect(new Redactor().text(`Bearer ${'a'.repeat(10 * MB)}`)).toBe(`Bearer ${MASK}`)
  })

  it('walks JSON nested 100,000 deep without recursion, masking at the bottom', () => {
    let deep: unknown = { env: [{ name: 'VAULT_TOKEN', value: 'plain-token' }] }
    for (let i = 0; i < 100_000; i++) deep = { child: deep }
    const redactor = new Redactor()
    let out = redactor.value(deep) as { child?: unknown; env?: { value: string }[] }
    while (out.child) out = out.child as typeof out
    expect(out.env![0].value).toBe(MASK)
    expect(redactor.count).toBe(1)
  })

  it.each([198, 199, 200, 201, 202, 450])(
    'masks an env entry, a sensitive field and a token in text %i levels down, on either side of where the walk stops recursing',
    (levels) => {
      const leaf = { env: [{ name: 'VAULT_TOKEN', value: 'plain-token' }], password: 'hunter22', note: ['token=hvs.CAESIJ8x1Fq2ZbYtQ9r0uVwXyZaBcDeFgHiJ'] }
      let deep: unknown = leaf
      for (let i = 0; i < levels; i++) deep = i % 2 ? { child: deep, same: 'x' } : [deep, 'y']
      const redactor = new Redactor()
      let out = redactor.value(deep)
      for (let i = 0; i < levels; i++) out = Array.isArray(out) ? out[0] : (out as { child: unknown }).child
      expect(out).toEqual({ env: [{ name: 'VAULT_TOKEN', value: MASK }], password: MASK, note: [`token=${MASK}`] })
      expect(leaf.env[0].value).toBe('plain-token')
      expect(redactor.count).toBe(3)
    },
  )

  it('keeps a key named __proto__ a plain key when it copies an object', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "token": "abc", "other": "v"}') as Record<string, unknown>
    const out = new Redactor().value(input)
    expect(out).not.toBe(input)
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.hasOwn(out, '__proto__')).toBe(true)
    expect(out.token).toBe(MASK)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
