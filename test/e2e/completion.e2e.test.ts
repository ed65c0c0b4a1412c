import { spawn, spawnSync } from 'node:child_process'
import net from 'node:net'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

const work = mkdtempSync(path.join(tmpdir(), 'completion-'))
/** Completion the way a shell asks for it through kubectl (1.26+): `kubectl __complete chainnode ...`. */
function kubectlComplete(args: string[], kubeconfig = inject('kubeconfigPath')) {
  const started = Date.now()
  const result = spawnSync('kubectl', ['__complete', 'chainnode', ...args], {
    env: { ...process.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}`, KUBECONFIG: kubeconfig },
    encoding: 'utf8',
  })
  expect(result.status, result.stderr).toBe(0)
  return { lines: result.stdout.trim().split('\n'), stdout: result.stdout, ms: Date.now() - started }
}

/** A completion call that does not block the event loop (the hung listener lives in this process). */
function completeAsync(command: string, args: string[], kubeconfig: string): Promise<{ stdout: string; ms: number }> {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: { ...process.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}`, KUBECONFIG: kubeconfig },
    })
    let stdout = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.on('close', () => resolve({ stdout, ms: Date.now() - started }))
  })
}

describe('shell completion through real kubectl', () => {
  it('completes command names offline', () => {
    expect(kubectlComplete(['doc']).lines).toEqual(['doctor', ':4'])
    expect(kubectlComplete(['pprof', '']).lines).toEqual(['allocs', 'block', 'flame', 'goroutine', 'heap', 'mutex', 'profile', 'top', 'trace', ':4'])
  })

  it('completes flags and flag values', () => {
    expect(kubectlComplete(['doctor', '--fail']).lines).toEqual(['--fail-on', ':4'])
    expect(kubectlComplete(['doctor', '-o', '']).lines).toEqual(['text', 'json', 'markdown', 'junit', ':4'])
  })

  it('offers the seeded ChainNode, ChainNodeSet and namespace names from the test cluster', () => {
    expect(kubectlComplete(['doctor', '-n', 'sc-healthy', '']).lines).toEqual(['fullnode-0', 'hub-fullnodes-0', 'hub-fullnodes-1', ':4'])
    expect(kubectlComplete(['status', '-n', 'sc-healthy', '--set', '']).lines).toEqual(['hub', ':4'])
    expect(kubectlComplete(['doctor', '-n', 'sc-sig']).lines).toEqual(['sc-signer-discovery-timeout', 'sc-signer-pubkey', ':4'])
  })

  it('completes rule ids, and container names of the node typed (its init containers too) after the roles logs knows', () => {
    expect(kubectlComplete(['doctor', '--rule', 'signer-p']).lines).toEqual(['signer-pubkey', ':4'])
    expect(kubectlComplete(['rules', 'explain', 'image']).lines).toEqual(['image-pull', ':4'])
    expect(kubectlComplete(['logs', 'val-0', '-n', 'sc-signer-discovery-timeout', '-c', 'wait-']).lines).toEqual(['wait-cosmosigner-discovery', ':4'])
    expect(kubectlComplete(['logs', 'val-0', '-n', 'sc-signer-discovery-timeout', '-c', '']).lines.slice(0, 5)).toEqual([
      'app',
      'node-utils',
      'gate',
      'operator',
      'all',
    ])
  })

  it('returns nothing, and no error text, for an unknown command, a broken kubeconfig or a cluster that does not answer', async () => {
    expect(kubectlComplete(['frobnicate', '']).lines).toEqual([':4'])
    const broken = path.join(work, 'broken.yaml')
    writeFileSync(broken, 'clusters: [\n')
    expect(kubectlComplete(['doctor', ''], broken).stdout).toBe(':4\n')
    // A loopback listener that accepts and never answers: a hung API server.
    const silent = net.createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as net.AddressInfo).port
    const hung = path.join(work, 'hung.yaml')
    writeFileSync(
      hung,
      `apiVersion: v1\nkind: Config\ncurrent-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:${port}"}}]\nusers: [{name: u, user: {token: t}}]\n`,
    )
    const slow = await completeAsync('kubectl', ['__complete', 'chainnode', 'doctor', ''], hung)
    expect(slow.stdout).toBe(':4\n')
    // kubectl spends seconds of its own on such a server; our part must stay short.
    const ours = await completeAsync(path.join(ROOT, 'bin', 'kubectl_complete-chainnode'), ['doctor', ''], hung)
    silent.close()
    expect(ours.stdout).toBe(':4\n')
    expect(ours.ms).toBeLessThan(4000)
  })

  it('prints bash, zsh and fish scripts; the bash one completes in a real bash', () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = spawnSync(path.join(ROOT, 'bin', 'kubectl-chainnode'), ['completion', shell], { encoding: 'utf8' })
      expect(script.status).toBe(0)
      expect(script.stdout).toContain('kubectl-chainnode __complete')
    }
    const bash = spawnSync(
      'bash',
      ['-c', 'source <(kubectl-chainnode completion bash); COMP_WORDS=(kubectl-chainnode doc); COMP_CWORD=1; _kubectl_chainnode; echo "${COMPREPLY[@]}"'],
      { env: { ...process.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}` }, encoding: 'utf8' },
    )
    expect(bash.stdout.trim()).toBe('doctor')
  })
})
