import { describe, expect, it } from 'vitest'
import { isJsonObject, listAt, textAt, valueAt } from '../../src/util/json-path.js'

// A node's RPC answer, a kubeconfig, a credential plugin's output: JSON a stranger wrote, read one checked step at a time.
describe('reading a path through JSON a stranger wrote', () => {
  const answer = JSON.parse(
    '{"result":{"sync_info":{"latest_block_height":"12","catching_up":false},"peers":[{"id":"a"}],"__proto__":{"polluted":"yes"},"list":[1,2]}}',
  ) as unknown

  it('reads what is there, and undefined where a step is missing or not an object', () => {
    expect(valueAt(answer, 'result', 'sync_info', 'latest_block_height')).toBe('12')
    expect(valueAt(answer, 'result', 'sync_info', 'catching_up')).toBe(false)
    expect(valueAt(answer, 'result', 'missing', 'deeper')).toBeUndefined()
    expect(valueAt(answer, 'result', 'sync_info', 'latest_block_height', 'length')).toBeUndefined()
    expect(valueAt(null, 'result')).toBeUndefined()
    expect(valueAt('text', 'length')).toBeUndefined()
  })

  it('does not walk into lists by name: a list is not an object with fields', () => {
    expect(valueAt(answer, 'result', 'list', 'length')).toBeUndefined()
    expect(valueAt(answer, 'result', 'list', '0')).toBeUndefined()
    expect(listAt(answer, 'result', 'list')).toEqual([1, 2])
  })

  it('reads own fields only: __proto__ in an answer is a key, and inherited names are not fields', () => {
    expect(valueAt(answer, 'result', '__proto__', 'polluted')).toBe('yes')
    expect(valueAt(answer, 'result', 'constructor')).toBeUndefined()
    expect(valueAt(answer, 'result', 'toString')).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('gives a string or undefined, a list or an empty one, whatever the value is', () => {
    expect(textAt(answer, 'result', 'sync_info', 'latest_block_height')).toBe('12')
    expect(textAt(answer, 'result', 'sync_info', 'catching_up')).toBeUndefined()
    expect(textAt(answer, 'result', 'peers')).toBeUndefined()
    expect(listAt(answer, 'result', 'peers')).toEqual([{ id: 'a' }])
    expect(listAt(answer, 'result', 'sync_info')).toEqual([])
  })

  it('tells an object from a list, null and a value', () => {
    expect([{}, [], null, 'x', 1].map(isJsonObject)).toEqual([true, false, false, false, false])
  })
})
