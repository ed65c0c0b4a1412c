import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdtempSync, openSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { resolveContext } from '../../src/cluster/kubeconfig.js'
import { UserError } from '../../src/util/errors.js'
import { runCli } from '../helpers/cli.js'

/*
 * Issue 31, item 3: the kubeconfig is read with a size cap and under the run's deadline. A FIFO nobody writes,
 * a FIFO whose writer never closes it, and /dev/zero each end in one usage error (exit 2), neither hanging
 * past --timeout nor filling the memory; a kubeconfig given as a pipe that does close still works.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'kc-bounded-'))
const fifo = (name: string) => {
  const file = path.join(dir, name)
  execFileSync('mkfifo', [file])
  return file
}
const open: number[] = []
afterAll(() => open.forEach((fd) => closeSync(fd)))

const KUBECONFIG = `apiVersion: v1
current-context: a
contexts: [{name: a, context: {cluster: c, user: u}}]
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
`

describe('the kubeconfig read is bounded', () => {
  it('/dev/zero: refused at the size cap, in one line', async () => {
    const error = await resolveContext({ kubeconfig: '/dev/zero' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UserError)
    expect((error as Error).message).toBe('kubeconfig /dev/zero is larger than 16 MiB (a device or a wrong file?)')
  })

  it('a FIFO with no writer: opened without blocking, read as empty', async () => {
    const started = Date.now()
    await expect(resolveContext({ kubeconfig: fifo('nobody') })).rejects.toThrow(/^the kubeconfig sets no current-context$/)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('a FIFO whose writer never closes it: refused at the deadline', async () => {
    const file = fifo('held')
    // This process holds the FIFO open for writing (read-write does not block) and never writes.
    open.push(openSync(file, constants.O_RDWR | constants.O_NONBLOCK))
    const error = await resolveContext({ kubeconfig: file, deadlineAt: Date.now() + 300 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UserError)
    expect((error as Error).message).toMatch(/^kubeconfig .*held did not end in time/)
  })

  it('a pipe that is written and closed is a kubeconfig like any other (process substitution)', async () => {
    const file = fifo('written')
    const fd = openSync(file, constants.O_RDWR | constants.O_NONBLOCK)
    writeSync(fd, KUBECONFIG)
    const reading = resolveContext({ kubeconfig: file, deadlineAt: Date.now() + 5_000 })
    setTimeout(() => closeSync(fd), 100)
    expect((await reading).cluster.server).toBe('https://127.0.0.1:1')
  })

  it('the CLI: KUBECONFIG=/dev/zero and a held FIFO with --timeout end in one line, exit 2', async () => {
    const zero = await runCli(['doctor', 'x', '-n', 'ns'], { env: { KUBECONFIG: '/dev/zero' } })
    expect(zero.code, zero.stderr).toBe(2)
    expect(zero.stderr.trim().split('\n')).toHaveLength(1)
    expect(zero.stderr).toMatch(/^error: kubeconfig \/dev\/zero is larger than 16 MiB/)

    const file = fifo('held-cli')
    open.push(openSync(file, constants.O_RDWR | constants.O_NONBLOCK))
    const started = Date.now()
    const held = await runCli(['doctor', 'x', '-n', 'ns', '--timeout', '2s'], { env: { KUBECONFIG: file } })
    expect(held.code, held.stderr).toBe(2)
    expect(held.stderr.trim().split('\n')).toHaveLength(1)
    expect(held.stderr).toMatch(/did not end in time/)
    expect(Date.now() - started).toBeLessThan(15_000)
  })
})
