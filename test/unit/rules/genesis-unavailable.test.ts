import { describe, expect, it } from 'vitest'
import { findingsOf, objectsOf, runAllRules } from '../../helpers/bundles.js'
import { operatorEvent } from '../../helpers/operator-records.js'
import { failReconciles as failing, healthyNode as node, minutesBefore as before, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()

describe('genesis', () => {
  it('a node with no .spec.genesis that times out in InitGenesis is told about its genesis Pod, not its genesis source', () => {
    const s = clone()
    delete node(s).spec.genesis
    node(s).status.phase = 'InitGenesis'
    failing(s, node(s), 'failed to initialize genesis: timed out waiting for the condition')
    const [finding] = findingsOf(s, 'genesis-unavailable')
    expect(finding.cause).toMatch(/creates a new genesis/)
    expect(finding.action).toMatch(/kubectl logs -n sc-healthy fullnode-0-genesis-init --all-containers/)
    expect(finding.action).not.toMatch(/\.spec\.genesis \(/)
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
  })

  it('doctor --set on a set with no ChainNode yet reports the set whose genesis fails', () => {
    const s = clone()
    s.objects = s.objects.filter((o) => !(o.kind === 'ChainNode' && o.metadata.labels?.nodeset === 'hub'))
    const set = objectsOf(s, 'ChainNodeSet')[0]
    set.status = { phase: 'Initializing' }
    s.objects.push(
      operatorEvent(set, 'GenesisError', 'Failed to download genesis from URL: dial tcp: lookup example.invalid: no such host', before(s, 1), 'Warning', 12),
    )
    const report = runAllRules(s)
    expect(report.nodes.map((n) => `${n.node.kind}/${n.node.name}`)).toContain('ChainNodeSet/hub')
    const [finding] = report.findings.filter((f) => f.ruleId === 'genesis-unavailable')
    expect(finding.subject).toMatchObject({ kind: 'ChainNodeSet', name: 'hub' })
    expect(finding.summary).toMatch(/Failed to download genesis from URL/)
    expect(finding.action).toMatch(/kubectl describe chainnodeset hub -n sc-healthy/)
  })

  it('a set with nodes: the set finding is shared by its nodes, once', () => {
    const s = clone()
    const set = objectsOf(s, 'ChainNodeSet')[0]
    s.objects.push(operatorEvent(set, 'GenesisError', 'Failed to load genesis from ConfigMap: configmaps "hub-genesis" not found', before(s, 1)))
    const all = findingsOf(s, 'genesis-unavailable')
    expect(all).toHaveLength(1)
    expect(all[0].subject.kind).toBe('ChainNodeSet')
    expect(all[0].alsoFor?.length).toBe(1)
  })
})
