import { describe, expect, it } from 'vitest'
import { editable, findingsOf } from '../../helpers/bundles.js'
import { healthyNode as node, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()

describe('operator-missing', () => {
  it('a node whose worker-name no release runs: names the worker and the release to install', () => {
    const s = clone()
    node(s).metadata.labels = { ...node(s).metadata.labels, 'worker-name': 'nightly' }
    const [finding] = findingsOf(s, 'operator-missing')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toBe('no operator release reconciles this node (worker nightly)')
    expect(finding.action).toMatch(/^Install an operator release with workerName=nightly/)
    expect(finding.evidence.find((e) => e.kind === 'missing')?.text).toBe('no cosmopilot operator Deployment with WORKER_NAME=nightly in the cluster')
  })

  it('no operator Deployment at all: the operator is not installed', () => {
    const s = clone()
    expect(findingsOf(s, 'operator-missing')).toEqual([])
    s.objects = editable(s).filter((o) => o.kind !== 'Deployment')
    const found = findingsOf(s, 'operator-missing')
    expect(found.map((f) => f.node.name)).toContain('fullnode-0')
    expect(found[0].cause).toMatch(/^the cosmopilot operator is not installed/)
  })

  it('cannot tell when the Deployments could not be listed: no finding', () => {
    const s = clone()
    s.objects = editable(s).filter((o) => o.kind !== 'Deployment')
    s.collectionErrors.push({ what: 'list deployments (all namespaces)', reason: 'forbidden', message: 'deployments.apps is forbidden' })
    expect(findingsOf(s, 'operator-missing')).toEqual([])
  })
})
