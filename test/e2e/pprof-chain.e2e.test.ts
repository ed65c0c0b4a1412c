import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { freeLocalPort, initComet, startComet, stopComet, type RunningComet } from '../cluster/comet.js'
import { apply, useCluster } from '../cluster/kube.js'
import { forwardPort } from '../cluster/portforward.js'
import { runCli } from '../helpers/cli.js'
import { seedNode } from './seed-node.js'

// --target chain against a real CometBFT node started with rpc.pprof_laddr, behind a kwok
// port-forward; the ConfigMap holds that node's own config.toml, as the operator renders it.
const NS = 't-pprof-chain'
const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
const dir = mkdtempSync(path.join(tmpdir(), 'pprof-chain-e2e-'))
let comet: RunningComet | undefined

function rows(text: string): string[] {
  return text.split('\n').filter((line) => /^\s*-?[\d.]+\w*\s+-?[\d.]+%\s+-?[\d.]+%\s+-?[\d.]+\w*\s+-?[\d.]+%\s+\S/.test(line))
}

describe('pprof --target chain', () => {
  beforeAll(async () => {
    const clusterDir = inject('clusterDir')
    useCluster(clusterDir)
    const [home] = initComet(clusterDir, ['pprof-chain'], { chainId: 'pprof-chain' })
    const pprofPort = await freeLocalPort()
    const configPath = path.join(home!.home, 'config', 'config.toml')
    const config = readFileSync(configPath, 'utf8').replace(/^pprof_laddr = .*$/m, `pprof_laddr = "127.0.0.1:${pprofPort}"`)
    expect(config).toContain(`pprof_laddr = "127.0.0.1:${pprofPort}"`)
    writeFileSync(configPath, config)
    comet = await startComet(clusterDir, home!)
    for (const [name, toml] of [
      ['chain-0', config],
      ['off-0', config.replace(/^pprof_laddr = .*$/m, 'pprof_laddr = ""')],
    ] as const) {
      await seedNode(NS, name, { containers: [{ name: 'node', image: 'ghcr.io/cosmos/gaia:v25.2.0' }] })
      await apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS }, data: { 'config.toml': toml } })
    }
    // The Pod's port is the one the config names; kwok forwards it to the real node.
    await forwardPort(NS, 'chain-0', pprofPort, pprofPort)
  }, 120_000)
  afterAll(async () => {
    if (comet) await stopComet(inject('clusterDir'), comet)
  })

  it('captures the chain process heap at rpc.pprof_laddr, equal to go tool pprof', async () => {
    const file = path.join(dir, 'chain-heap.pb.gz')
    const result = await runCli(['pprof', 'heap', 'chain-0', '-n', NS, '--target', 'chain', '-o', file, '--top', '1000'], { env: env() })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/only the chain process .* sensitive/)
    const go = spawnSync('go', ['tool', 'pprof', '-top', file], { encoding: 'utf8' })
    expect(go.status, go.stderr).toBe(0)
    expect(rows(result.stdout)).toEqual(rows(go.stdout))
    // It is CometBFT's heap, not node-utils': its own packages are in it.
    expect(result.stdout).toMatch(/github\.com\/cometbft\/cometbft/)
  })

  it('shows the chain goroutines grow or not over an interval', async () => {
    const result = await runCli(['pprof', 'goroutine', 'chain-0', '-n', NS, '--target', 'chain', '--growth', '1s', '-o', path.join(dir, 'g.pb.gz')], {
      env: env(),
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^goroutines: \d+ -> \d+ \([+-]?\d+\) in 1s$/m)
  })

  it('says in one line that the chain does not serve pprof, with the override that enables it', async () => {
    const result = await runCli(['pprof', 'heap', 'off-0', '-n', NS, '--target', 'chain'], { env: env() })
    expect(result.code).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(
      /^error: the chain process of off-0 does not serve pprof: rpc\.pprof_laddr is empty in ConfigMap\/off-0 config\.toml; enable it /,
    )
    expect(result.stderr).toContain(
      `kubectl patch chainnode off-0 -n ${NS} --type merge -p '{"spec":{"config":{"override":{"config.toml":{"rpc":{"pprof_laddr":"127.0.0.1:6060"}}}}}}'`,
    )
    expect(result.stderr).not.toMatch(/^\s+at /m)
  })
})
