import { spawn } from 'node:child_process'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { clusterKube, patchStatus, useCluster } from '../cluster/kube.js'
import { CLI, runCli } from '../helpers/cli.js'
import { seedNode } from './seed-node.js'

const NS = 't-watch'
const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
const chainNode = (name: string) => ({ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', metadata: { name, namespace: NS } })
const uids: Record<string, string> = {}

/** Start a --watch run and read its stdout as it comes; the run ends with Ctrl-C, as a user ends it. */
function watch(args: string[]) {
  const child = spawn(CLI, args, { env: { ...process.env, ...env(), NO_COLOR: '1' } })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  return {
    lines: () => out.split('\n').filter(Boolean),
    async waitFor(test: (lines: string[]) => boolean, what: string) {
      for (let i = 0; i < 300 && !test(this.lines()); i++) await new Promise((r) => setTimeout(r, 100))
      expect(test(this.lines()), `${what}; got:\n${out}`).toBe(true)
    },
    /** Ctrl-C; true when the run ended by it: the kernel's default action (nothing to undo), or the handler's 130. */
    async interrupt() {
      child.kill('SIGINT')
      return new Promise<boolean>((resolve) => child.on('close', (code, signal) => resolve(signal === 'SIGINT' || code === 130)))
    },
  }
}

describe('status and events against the real cluster: --watch and -l', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    for (const [name, role] of [
      ['w-0', 'a'],
      ['w-1', 'b'],
    ]) {
      uids[name] = (await seedNode(NS, name, { labels: { role }, status: { phase: 'Running', validator: false, latestHeight: 100 } })).uid
    }
  })

  it('-l keeps the nodes whose labels match', async () => {
    const { code, stdout } = await runCli(['status', '-n', NS, '-l', 'role=a', '--no-headers'], { env: env() })
    expect(code).toBe(0)
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['w-0'])
  })

  it('status -w prints the row of a node again when it changes', async () => {
    const run = watch(['status', '--all', '-n', NS, '-w'])
    await run.waitFor((lines) => lines.length === 3 && lines[0].startsWith('NAME'), 'the first listing: a header and two nodes')
    await patchStatus(chainNode('w-0'), { status: { phase: 'Syncing', latestHeight: 200 } })
    await run.waitFor((lines) => lines.slice(3).some((line) => /^w-0\s+Syncing\s.*\b200\b/.test(line)), 'a new row for w-0')
    // Only what changed is printed again, and no header.
    expect(
      run
        .lines()
        .slice(3)
        .every((line) => line.startsWith('w-0')),
    ).toBe(true)
    expect(await run.interrupt()).toBe(true)
  })

  it('events -w prints an Event when it happens', async () => {
    const run = watch(['events', 'w-1', '-n', NS, '-w'])
    await run.waitFor((lines) => lines.some((line) => /No events found|LAST SEEN/.test(line)), 'the first listing')
    await clusterKube().createEvent(
      { ...chainNode('w-1'), metadata: { ...chainNode('w-1').metadata, uid: uids['w-1'] } },
      { reason: 'NodeSyncing', message: 'watched while it happened', component: 'chainnode-controller' },
    )
    await run.waitFor((lines) => lines.some((line) => /NodeSyncing\s+chainnode\/w-1\s+watched while it happened/.test(line)), 'the new Event')
    expect(await run.interrupt()).toBe(true)
  })
})
