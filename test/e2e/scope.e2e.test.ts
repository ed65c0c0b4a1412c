/**
 * One answer whatever the scope: a node's findings (the rule, severity and role of each, and so its incidents) and
 * its state are the same under `doctor NAME -n NS`, `--all -n NS`, `--set SET -n NS` and `-A`, on every scenario of
 * the test cluster. A stale operator Lease that `doctor NAME` reports must not vanish under -A.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { SCENARIOS } from '../cluster/scenarios/index.js'
import { refreshScenarios, waitForChainHalt } from './scenario-setup.js'

interface JsonFinding {
  ruleId: string
  severity: string
  role: string
  node: { namespace: string; name: string }
  alsoFor?: { namespace: string; name: string }[]
}
interface JsonReport {
  clusters: { nodes: { kind?: string; namespace: string; name: string; worst: string }[]; findings: JsonFinding[] }[]
}

const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })

async function doctor(args: string[]): Promise<JsonReport> {
  // The scenarios record state; the probes are checked in chain.e2e and validators.e2e.
  const result = await runCli(['doctor', ...args, '-o', 'json', '--fail-on', 'never', '--no-probe'], { env: env(), timeoutMs: 120_000 })
  expect(result.stderr, args.join(' ')).toBe('')
  return JSON.parse(result.stdout) as JsonReport
}

/** Per node ("namespace/name"): its state and what is found on it, each finding as rule/severity/role, sorted. */
function perNode(report: JsonReport): Map<string, string[]> {
  const out = new Map<string, string[]>()
  const add = (key: string, item: string) => out.set(key, [...(out.get(key) ?? []), item])
  for (const cluster of report.clusters) {
    for (const node of cluster.nodes) add(`${node.namespace}/${node.name}`, `state:${node.worst}`)
    for (const f of cluster.findings)
      for (const node of [f.node, ...(f.alsoFor ?? [])]) add(`${node.namespace}/${node.name}`, `${f.ruleId}/${f.severity}/${f.role}`)
  }
  for (const items of out.values()) items.sort()
  return out
}

function chainNodeSets(namespace: string): string[] {
  const result = spawnSync(path.join(inject('binDir'), 'kubectl'), ['get', 'chainnodesets', '-n', namespace, '-o', 'name'], {
    env: { ...process.env, ...env() },
    encoding: 'utf8',
  })
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(line.indexOf('/') + 1))
}

describe('one answer whatever the scope: NAME, --all -n, --set and -A agree on every node', () => {
  beforeAll(async () => {
    // Without the probe, the halted chain is read from its logs: its last commit must be old enough.
    await waitForChainHalt()
  }, 120_000)

  it.each(SCENARIOS.map((s) => s.namespace))('%s', { timeout: 300_000 }, async (namespace) => {
    // Healthy leases and heights go stale in seconds: every scope is read within the same few seconds.
    await refreshScenarios()
    const sets = chainNodeSets(namespace)
    const [everything, inNamespace, ...ofSets] = await Promise.all([
      doctor(['-A']),
      doctor(['--all', '-n', namespace]),
      ...sets.map((set) => doctor(['--set', set, '-n', namespace])),
    ])
    const names = inNamespace.clusters[0].nodes.filter((n) => n.kind !== 'ChainNodeSet').map((n) => n.name)
    expect(names.length, 'the namespace has ChainNodes').toBeGreaterThan(0)
    const alone = await Promise.all(names.map((name) => doctor([name, '-n', namespace])))
    const wide = perNode(everything)
    const local = perNode(inNamespace)
    const bySet = ofSets.map(perNode)
    names.forEach((name, i) => {
      const key = `${namespace}/${name}`
      const own = perNode(alone[i]).get(key)
      expect(own, `${key}: doctor NAME`).toBeDefined()
      expect(local.get(key), `${key}: --all -n ${namespace} against doctor ${name}`).toEqual(own)
      expect(wide.get(key), `${key}: -A against doctor ${name}`).toEqual(own)
      for (const [j, set] of sets.entries()) if (bySet[j].has(key)) expect(bySet[j].get(key), `${key}: --set ${set}`).toEqual(own)
    })
  })
})

describe('a ChainNodeSet asked for by NAME', () => {
  it('says it is a ChainNodeSet and how to diagnose it with --set', async () => {
    const result = await runCli(['doctor', 'no-genesis', '-n', 'sc-operator-vocabulary', '--no-probe'], { env: env() })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/"no-genesis" is a ChainNodeSet in namespace sc-operator-vocabulary: use --set no-genesis/)
  })
})
