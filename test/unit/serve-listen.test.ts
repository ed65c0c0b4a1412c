import { describe, expect, it } from 'vitest'
import { parseListen } from '../../src/commands/serve.js'

describe('serve --listen', () => {
  it.each([
    [':9844', { port: 9844 }],
    ['127.0.0.1:9844', { host: '127.0.0.1', port: 9844 }],
    ['[::1]:0', { host: '::1', port: 0 }],
    ['localhost:80', { host: 'localhost', port: 80 }],
  ])('reads %s', (text, address) => expect(parseListen(text)).toEqual(address))

  it.each(['9844', '127.0.0.1', ':70000', '::1:9844', 'host:port', ''])('refuses %j with one line saying what to write', (text) =>
    expect(() => parseListen(text)).toThrow(/is not \[HOST\]:PORT/),
  )
})
