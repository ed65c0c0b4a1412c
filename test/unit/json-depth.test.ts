/**
 * Values nested thousands deep, in every kind of JSON a stranger hands us: the bounded parse refuses them, the
 * pruned parse keeps the rest, and each reader of log lines and RPC answers ends in a value that later code can
 * stringify (the crash it prevents: JSON.stringify or String() of an array 3,000 deep overflows the stack).
 */
import { describe, expect, it } from 'vitest'
import { parseChainLine } from '../../src/snapshot/chain-log.js'
import { parseConfigFile } from '../../src/analysis/config-diff.js'
import { parseReconcileLine } from '../../src/analysis/reconcile-log.js'
import { describeLogLine } from '../../src/snapshot/log-format.js'
import { rpcResult } from '../../src/snapshot/rpc-answer.js'
import { consensusAddressOf } from '../../src/snapshot/signing.js'
import { parseLogLine } from '../../src/timeline/log-line.js'
import { cutNote, JsonTooDeepError, MAX_JSON_DEPTH, nestedDeeperThan, parseJsonBounded, parseJsonPruned } from '../../src/util/json-depth.js'

const DEEP = 20_000
const deepList = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth)
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

describe('nesting depth of JSON text', () => {
  it('counts objects and lists, not the brackets inside strings, escaped quotes included', () => {
    expect(nestedDeeperThan(deepList(3), 3)).toBe(false)
    expect(nestedDeeperThan(deepList(4), 3)).toBe(true)
    expect(nestedDeeperThan(deepObject(4), 3)).toBe(true)
    expect(nestedDeeperThan(JSON.stringify({ a: '[[[[[[[[' }), 1)).toBe(false)
    expect(nestedDeeperThan(JSON.stringify({ a: 'say \\"[[[[[[[["' }), 1)).toBe(false)
    expect(nestedDeeperThan(JSON.stringify([{ a: '\\' }, [[1]]]), 2)).toBe(true)
    expect(nestedDeeperThan(JSON.stringify([{ a: '\\' }, [1]]), 2)).toBe(false)
  })

  it('the bounded parse refuses past the limit and reads up to it', () => {
    expect(parseJsonBounded(deepList(MAX_JSON_DEPTH))).toBeInstanceOf(Array)
    expect(() => parseJsonBounded(deepList(MAX_JSON_DEPTH + 1))).toThrow(JsonTooDeepError)
    expect(() => parseJsonBounded('{')).toThrow(SyntaxError)
  })

  it('the pruned parse replaces only what lies past the limit, own __proto__ keys included', () => {
    const text = `{"kept":{"b":[1,2]},"deep":${deepList(DEEP)},"__proto__":${deepObject(DEEP)}}`
    const value = parseJsonPruned<Record<string, unknown>>(text, 3)
    expect(value.kept).toEqual({ b: [1, 2] })
    expect(value.deep).toEqual([[cutNote(3)]])
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ a: { a: cutNote(3) } })
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(() => JSON.stringify(value)).not.toThrow()
  })
})

describe("every reader of a stranger's JSON ends in a value that can be printed", () => {
  const deepField = (message: string) => `{"level":"error","msg":${deepList(DEEP)},"ts":${deepObject(DEEP)},"error":${deepList(DEEP)},"note":"${message}"}`

  it('log lines of every format reader', () => {
    const line = deepField('x')
    for (const read of [() => describeLogLine(line), () => parseLogLine(line), () => parseChainLine({ text: line, source: 'node' } as never)])
      expect(() => JSON.stringify(read()) + String(Object.values(read() ?? {}))).not.toThrow()
    const reconcile = `{"level":"error","msg":"Reconciler error","reconcileID":"r1","controller":"chainnode","ChainNode":{"name":"n","namespace":"ns"},"error":${deepList(DEEP)}}`
    const parsed = parseReconcileLine(reconcile, undefined, 'operator')
    expect(() => `${JSON.stringify(parsed)} ${String(parsed?.error)}`).not.toThrow()
  })

  it('an RPC answer, a validator key and a rendered JSON config file', () => {
    const problems: string[] = []
    const body = Buffer.from(`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":${deepList(DEEP)}}}`)
    expect(rpcResult({ status: 200, contentType: 'application/json', truncated: false, body }, 'status', problems)).toBeUndefined()
    expect(problems.join('\n')).toContain('RPC error')
    expect(consensusAddressOf(`{"@type":${deepList(DEEP)},"key":"AAAA"}`)).toBeUndefined()
    expect(() => JSON.stringify(parseConfigFile('app.json', `{"a":${deepObject(DEEP)}}`))).not.toThrow()
  })
})
