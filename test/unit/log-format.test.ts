import { describe, expect, it } from 'vitest'
import { describeLogLine, isRoutineLine, logLineSummary } from '../../src/snapshot/log-format.js'
import { parseLogLine } from '../../src/timeline/log-line.js'
import { evidenceText, presentEvidence } from '../../src/render/evidence.js'
import type { Evidence } from '../../src/engine/define-rule.js'

describe('a log line as evidence: time, level, message and the fields that matter, in every format we read', () => {
  it('zap JSON (the operator): the message before the caller, the object as namespace/name, the error first', () => {
    const line =
      '{"level":"error","ts":1795700938.8121,"logger":"controller","caller":"controller/controller.go:316","msg":"Reconciler error","controller":"chainnode","ChainNode":{"name":"val-0","namespace":"cosmos"},"reconcileID":"8f1c","error":"signer not ready","stacktrace":"sigs.k8s.io/..."}'
    expect(describeLogLine(line)).toEqual({
      level: 'error',
      time: '2026-11-26T13:48:58.812Z',
      message: 'Reconciler error',
      fields: [
        ['error', 'signer not ready'],
        ['controller', 'chainnode'],
        ['ChainNode', 'cosmos/val-0'],
        ['reconcileID', '8f1c'],
      ],
    })
    expect(logLineSummary(line)).toBe('ERROR Reconciler error error="signer not ready" controller=chainnode ChainNode=cosmos/val-0 reconcileID=8f1c')
  })

  it('klog (leader election): the level letter and the message, not the header', () => {
    const line = 'I1126 13:49:11.812000       1 leaderelection.go:257] attempting to acquire leader lease cosmopilot-system/cosmopilot...'
    expect(logLineSummary(line)).toBe('INFO attempting to acquire leader lease cosmopilot-system/cosmopilot...')
    expect(logLineSummary('E1126 13:49:11.812000       1 leaderelection.go:436] "error retrieving resource lock" err="leases is forbidden"')).toBe(
      'ERROR error retrieving resource lock err="leases is forbidden"',
    )
  })

  it('logfmt (node-utils), zerolog console and CometBFT plain and JSON', () => {
    expect(describeLogLine('time="2026-11-22T13:09:18Z" level=warning msg="profiling disabled" error="bind: address already in use"')).toMatchObject({
      level: 'warning',
      time: '2026-11-22T13:09:18.000Z',
      message: 'profiling disabled',
      fields: [['error', 'bind: address already in use']],
    })
    expect(logLineSummary('\u001b[90m12:39PM\u001b[0m \u001b[31mERR\u001b[0m CONSENSUS FAILURE!!! module=consensus err="wrong Block.Header.AppHash"')).toBe(
      'ERROR CONSENSUS FAILURE!!! err="wrong Block.Header.AppHash" module=consensus',
    )
    expect(describeLogLine('E[2026-11-25|01:20:35.105] Error dialing peer                           module=p2p err="i/o timeout"')).toMatchObject({
      level: 'error',
      time: '2026-11-25T01:20:35.105Z',
      message: 'Error dialing peer',
      fields: [
        ['err', 'i/o timeout'],
        ['module', 'p2p'],
      ],
    })
    expect(logLineSummary('{"_msg":"Ensure peers","level":"info","module":"pex","numOutPeers":0,"numInPeers":0,"ts":"2026-11-22T13:08:59Z"}')).toBe(
      'INFO Ensure peers module=pex numOutPeers=0 numInPeers=0',
    )
  })

  it('a line in no known format is its own message, with no level unless it panics', () => {
    expect(describeLogLine('waiting for the signer')).toEqual({ level: undefined, message: 'waiting for the signer', fields: [] })
    expect(describeLogLine('panic: failed to reach remote signer').level).toBe('error')
  })

  it('routine lines (info, debug) are told from trouble and from lines without a level', () => {
    expect(isRoutineLine('I[2026-11-25|01:20:35.105] Ensure peers module=pex')).toBe(true)
    expect(isRoutineLine('time="x" level=debug msg="tick"')).toBe(true)
    expect(isRoutineLine('W[2026-11-25|01:20:35.105] Stopping peer for error module=p2p')).toBe(false)
    expect(isRoutineLine('plain output of a script')).toBe(false)
  })

  it('two different operator lines never show as the same evidence line', () => {
    const zap = (msg: string, error: string) =>
      `{"level":"error","ts":1795700938.81,"logger":"controller","caller":"controller/controller.go:316","msg":"${msg}","controller":"chainnode","error":"${error}"}`
    const evidence: Evidence[] = [
      { kind: 'log', source: 'log of cosmopilot-abc/manager', text: zap('Reconciler error', 'signer not ready'), at: '2026-11-26T13:00:00.1Z' },
      { kind: 'log', source: 'log of cosmopilot-abc/manager', text: zap('Reconciler error', 'pvc resize refused'), at: '2026-11-26T13:00:01.1Z' },
    ]
    const lines = presentEvidence(evidence).map((line) => evidenceText(line, '', 200))
    expect(lines).toHaveLength(2)
    expect(new Set(lines).size).toBe(2)
    expect(lines[0]).toBe('2026-11-26T13:00:00Z  log of cosmopilot-abc/manager: ERROR Reconciler error error="signer not ready" controller=chainnode')
  })
})

describe('a level word that is an inherited name', () => {
  // Found by test/unit/fuzz-classes.test.ts: the level table was indexed with the line's word, so "__proto__"
  // gave Object.prototype as the level.
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('%s is no level, in every format', (word) => {
    expect(describeLogLine(`level=${word} msg=m`).level).toBeUndefined()
    expect(describeLogLine(JSON.stringify({ level: word, msg: 'm' })).level).toBeUndefined()
    expect(parseLogLine(JSON.stringify({ level: word, msg: 'm' })).level).toBe('normal')
    expect(parseLogLine(`level=${word} msg=m`).level).toBe('normal')
  })
})
