import { describe, expect, it } from 'vitest'
import { MAX_ANSWER_BYTES, peersOf, rpcResult, sampleOf, type RpcAnswer } from '../../src/snapshot/rpc-answer.js'

const answer = (body: string, over: Partial<RpcAnswer> = {}): RpcAnswer => ({
  status: 200,
  contentType: 'application/json',
  body: Buffer.from(body),
  truncated: false,
  ...over,
})
/** The result and the problem lines of one answer to /status on 26657. */
const read = (a: RpcAnswer | Error, options?: Parameters<typeof rpcResult>[3]) => {
  const problems: string[] = []
  return { result: rpcResult(a, '/status on 26657', problems, options), problems }
}
const AT = '2026-11-26T12:00:00.000Z'

describe('a node’s JSON-RPC answers, read without a socket', () => {
  it('takes the result of a good answer and says nothing', () => {
    expect(read(answer('{"jsonrpc":"2.0","id":-1,"result":{"sync_info":{"latest_block_height":"12"}}}'))).toEqual({
      result: { sync_info: { latest_block_height: '12' } },
      problems: [],
    })
  })

  it.each([
    ['a fetch that failed', new Error('connect ECONNREFUSED 127.0.0.1:26657'), /^\/status on 26657: connect ECONNREFUSED/],
    [
      'HTML from a proxy',
      answer('<!DOCTYPE html><html><body>502 Bad Gateway</body></html>', { status: 502, contentType: 'text/html' }),
      /answered HTML, not JSON-RPC \(HTTP 502\)/,
    ],
    ['HTML with a JSON content type', answer('  <html>login</html>'), /answered HTML/],
    ['not HTTP at all', answer('SSH-2.0-OpenSSH_9.6', { status: 0, contentType: '' }), /something that is not HTTP: SSH-2\.0/],
    ['an empty non-HTTP answer', answer('', { status: 0, contentType: '' }), /not HTTP: \(empty\)$/],
    ['not JSON', answer('Not Found', { status: 404, contentType: 'text/plain' }), /HTTP 404 with something that is not JSON: Not Found/],
    ['an empty body', answer(''), /not JSON: \(empty\)$/],
    ['a cut answer', answer('{"result":{', { truncated: true }), /answer longer than 2 MB$/],
    [
      'an RPC error',
      answer('{"jsonrpc":"2.0","id":-1,"error":{"code":-32603,"message":"Internal error","data":"height 9 is not available"}}'),
      /RPC error -32603: Internal error: height 9 is not available/,
    ],
    ['an RPC error that is a string', answer('{"error":"boom"}'), /RPC error : boom/],
    ['no result', answer('{"jsonrpc":"2.0","id":-1}'), /a JSON answer without a result/],
    ['a result that is not an object', answer('{"result":"12"}'), /without a result/],
    ['JSON null', answer('null'), /without a result/],
    ['a JSON array', answer('[1,2]'), /without a result/],
  ])('%s: no result, one line saying why', (_, given, problem) => {
    const { result, problems } = read(given)
    expect(result).toBeUndefined()
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(problem)
  })

  it('names the limit the answer was read with', () => {
    expect(read(answer('{', { truncated: true }), { limit: 512 * 1024 }).problems).toEqual(['/status on 26657: answer longer than 0.5 MB'])
  })

  it('an RPC error line is cut at 300 characters, whatever the node sends', () => {
    const { problems } = read(answer(JSON.stringify({ error: { code: 1, message: 'x'.repeat(100_000) } })))
    expect(problems[0].length).toBe(300)
  })

  it('a cut /net_info still gives the peer count it starts with, and counts directions in what was read', () => {
    const head = `{"jsonrpc":"2.0","result":{"listening":true,"n_peers":"4000","peers":[${'{"is_outbound":true},{"is_outbound":false},'.repeat(3)}`
    const problems: string[] = []
    const result = rpcResult(answer(head, { truncated: true }), '/net_info on 26657', problems, { netInfo: true, limit: MAX_ANSWER_BYTES })
    expect(result).toEqual({ n_peers: '4000', peers: [], counted: { inbound: 3, outbound: 3 } })
    expect(problems[0]).toMatch(/n_peers 4000 read, directions counted in the first part only/)
    expect(peersOf(result!, AT)).toMatchObject({ total: 4000, inbound: 3, outbound: 3, list: [] })
  })

  it('a cut /net_info without n_peers has no result', () => {
    const problems: string[] = []
    expect(rpcResult(answer('{"result":{"peers":[', { truncated: true }), '/net_info on 26657', problems, { netInfo: true })).toBeUndefined()
    expect(problems).toEqual(['/net_info on 26657: answer longer than 2 MB without n_peers'])
  })
})

describe('samples and peers of odd results', () => {
  it('a /status without sync_info, or with a height that is no number, is height 0 and no block time', () => {
    expect(sampleOf({}, AT)).toEqual({ at: AT, height: 0, blockTime: undefined, catchingUp: false })
    expect(sampleOf({ sync_info: 'x' }, AT).height).toBe(0)
    expect(sampleOf({ sync_info: { latest_block_height: 'tall', latest_block_time: '2026-11-26T11:59:59Z' } }, AT)).toMatchObject({
      height: 0,
      blockTime: undefined,
    })
    expect(sampleOf({ sync_info: { latest_block_height: '7', latest_block_time: { t: 1 }, catching_up: 'true' } }, AT)).toEqual({
      at: AT,
      height: 7,
      blockTime: undefined,
      catchingUp: false,
    })
  })

  it('peers that are not objects are left out; the list is capped at 50 with the count kept', () => {
    const peers = [null, 'x', 3, ...Array.from({ length: 80 }, (_, i) => ({ is_outbound: i % 2 === 0, node_info: { id: `id${i}` }, remote_ip: `10.0.0.${i}` }))]
    const read = peersOf({ n_peers: '83', peers }, AT)
    expect(read).toMatchObject({ total: 83, inbound: 40, outbound: 40 })
    expect(read.list).toHaveLength(50)
    expect(read.list[0]).toEqual({ id: 'id0', address: '10.0.0.0', outbound: true })
    expect(peersOf({ n_peers: 'many', peers: 'none' }, AT)).toMatchObject({ total: 0, inbound: 0, outbound: 0, list: [] })
  })
})
