import { describe, expect, it } from 'vitest'
import { unreadableLogLine, type LogSource } from '../../src/app/logs.js'
import { ApiError } from '../../src/cluster/kube-client.js'

const pod = (state: Record<string, unknown>, lastState: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod' as const,
  metadata: { name: 'val-0', namespace: 'cosmos' },
  status: { containerStatuses: [{ name: 'app', state, lastState }] },
})
const source = (podObject?: LogSource['podObject']): LogSource => ({ namespace: 'cosmos', pod: 'val-0', container: 'app', label: 'app', podObject })

describe('a log that cannot be read is one line saying why', () => {
  it('a container waiting to start is worded as kubectl words it, with the reason from its state', () => {
    const waiting = pod({ waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' } })
    expect(unreadableLogLine(source(waiting), new ApiError('error', 'log target not found', 404), false)).toBe(
      'container "app" in pod "val-0" is waiting to start: CrashLoopBackOff (back-off 5m0s restarting failed container)',
    )
  })

  it('a Pod deleted between the list and the read says so, not "not found" of a container', () => {
    expect(unreadableLogLine(source(pod({ running: {} })), new ApiError('not-found', 'pods "val-0" not found', 404, undefined, 'object'), false)).toBe(
      'pod "val-0" was deleted while its logs were read (namespace cosmos)',
    )
  })

  it('a container that ran before has a previous log even while it waits; any other failure keeps the server words', () => {
    const restarted = pod({ waiting: { reason: 'CrashLoopBackOff' } }, { terminated: { reason: 'Error', exitCode: 1 } })
    expect(
      unreadableLogLine(source(restarted), new ApiError('forbidden', 'pods "val-0" is forbidden: User "viewer" cannot get resource "pods/log"', 403), true),
    ).toBe('cannot read the log of container "app" in pod "val-0": pods "val-0" is forbidden: User "viewer" cannot get resource "pods/log"')
    expect(unreadableLogLine(source(), new Error('socket hang up'), false)).toBe('cannot read the log of container "app" in pod "val-0": socket hang up')
  })
})
