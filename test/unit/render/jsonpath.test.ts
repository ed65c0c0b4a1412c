import { describe, expect, it } from 'vitest'
import { parseJsonPathTemplate, renderJsonPath } from '../../../src/render/jsonpath.js'
import { UserError } from '../../../src/util/errors.js'

/** The input of kubectl's JSONPath reference page (kubernetes.io/docs/reference/kubectl/jsonpath), written out again. */
const DOCS_INPUT = {
  kind: 'List',
  items: [
    {
      kind: 'None',
      metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } },
      status: { capacity: { cpu: '4' }, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] },
    },
    {
      kind: 'None',
      metadata: { name: '127.0.0.2' },
      status: {
        capacity: { cpu: '8' },
        addresses: [
          { type: 'LegacyHostIP', address: '127.0.0.2' },
          { type: 'another', address: '127.0.0.3' },
        ],
      },
    },
  ],
  users: [
    { name: 'myself', user: {} },
    { name: 'e2e', user: { username: 'admin', password: 'secret' } },
  ],
}

const run = (template: string, input: unknown = DOCS_INPUT) => renderJsonPath(template, input)

describe("-o jsonpath: the examples of kubectl's reference page", () => {
  // kubectl prints maps as compact JSON (the page's map[cpu:4] is Go's older String()); values of one action space-separated.
  it.each([
    ['kind is {.kind}', 'kind is List'],
    ["{['kind']}", 'List'],
    ['{..name}', '127.0.0.1 127.0.0.2 myself e2e'],
    ['{.items[*].metadata.name}', '127.0.0.1 127.0.0.2'],
    ['{.users[0].name}', 'myself'],
    ["{.items[*]['metadata.name', 'status.capacity']}", '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'],
    ['{.users[?(@.name=="e2e")].user.password}', 'secret'],
    ['{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}', '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] '],
    ["{range .items[*]}{.metadata.name}{'\\t'}{end}", '127.0.0.1\t127.0.0.2\t'],
    ['{range .items[*]}{.metadata.name}{"\\t"}{end}', '127.0.0.1\t127.0.0.2\t'],
    ["{.items[0].metadata.labels['kubernetes\\.io/hostname']}", '127.0.0.1'],
    ['{.items[-1].metadata.name}', '127.0.0.2'],
    ['{.items[1].status.addresses[-2:].address}', '127.0.0.2 127.0.0.3'],
    ['{.items[0:2:2].metadata.name}', '127.0.0.1'],
    ['{$.kind}', 'List'],
    ['{.items[?(@.metadata.labels)].metadata.name}', '127.0.0.1'],
    ['{.items[*].status.addresses[?(@.type=~"^Legacy")].address}', '127.0.0.1 127.0.0.2'],
  ])('%s', (template, expected) => expect(run(template)).toBe(expected))

  it('prints the current object for {@}, as JSON with sorted keys', () => {
    expect(JSON.parse(run('{@}'))).toEqual(DOCS_INPUT)
    expect(run('{.users[1].user}')).toBe('{"password":"secret","username":"admin"}')
  })

  it('ranges nest, and a range over nothing prints nothing', () => {
    expect(run('{range .items[*]}{.metadata.name}:{range .status.addresses[*]}{.type},{end};{end}')).toBe(
      '127.0.0.1:LegacyHostIP,;127.0.0.2:LegacyHostIP,another,;',
    )
    expect(run('a{range .missing[*]}x{end}b')).toBe('ab')
  })

  it('prints nothing for a missing field (kubectl get --allow-missing-template-keys=true)', () => {
    expect(run('<{.items[0].status.phase}>')).toBe('<>')
  })

  it('prints scalars as kubectl: numbers and booleans as text, null as <nil>', () => {
    expect(run('{.a} {.b} {.c}', { a: 12, b: true, c: null })).toBe('12 true <nil>')
  })

  it('escapes <, > and & in JSON as Go does', () => {
    expect(run('{.a}', { a: { x: '<b>&' } })).toBe('{"x":"\\u003cb\\u003e\\u0026"}')
  })

  it('reads a key named __proto__ as data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": 1}') as unknown
    expect(run('{.__proto__.polluted}', input)).toBe('yes')
    expect(run('{.constructor}', { a: 1 })).toBe('')
  })

  it('walks a deep object for .. without overflowing the stack', () => {
    let deep: Record<string, unknown> = { name: 'bottom' }
    for (let i = 0; i < 50_000; i++) deep = { child: deep }
    expect(run('{..name}', deep)).toBe('bottom')
  })
})

describe('-o jsonpath: a bad template is one usage error (exit 2)', () => {
  it.each([
    ['{.items[*].metadata.name', 'unclosed action'],
    ['{range .items[*]}{.metadata.name}', 'range without end'],
    ['{end}', 'not in range, nothing to end'],
    ['{.items[}', 'unclosed ['],
    ['{.items[0}', 'unclosed ['],
    ['{.a..}', 'a field name is missing'],
    ['{"\\q"}', 'unknown escape'],
    ['{.items[?(@.x == nope)]}', 'cannot compare with nope'],
    ['{.items[5]}', 'array index out of bounds: index 5, length 2'],
    ['{.items[0:2:0]}', 'step must be > 0'],
    ['{.items[?(@.kind=~"(")]}', '"(" is not a regular expression'],
  ])('%s: %s', (template, why) => {
    let thrown: unknown
    try {
      run(template)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(UserError)
    expect((thrown as UserError).exitCode).toBe(2)
    expect((thrown as UserError).message).toContain(why)
    expect((thrown as UserError).message).not.toContain('\n')
  })

  it('parses without the document: a template is checked before anything is read', () => {
    expect(() => parseJsonPathTemplate('{range .items[*]}')).toThrow(/range without end/)
    expect(parseJsonPathTemplate('{.a}x')).toHaveLength(2)
  })
})
