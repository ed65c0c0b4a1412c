import { beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject, Snapshot } from '../../../src/snapshot/types.js'
import { managerLine, operatorEvent } from '../../helpers/operator-records.js'
import { findingsOf, findObject, loadBundle, objectsOf, runAllRules } from '../../helpers/bundles.js'

/** Causes are read off what decides between them, and "cannot tell which" names both when that is missing. */
let healthy: Snapshot
beforeAll(async () => {
  healthy = await loadBundle('healthy')
})

const node = (s: Snapshot) => findObject(s, 'ChainNode', 'fullnode-0')
const operator = (s: Snapshot) => findObject(s, 'Deployment', 'cosmopilot')
const managerLog = (s: Snapshot) => s.logs.find((l) => l.container === 'manager' && l.namespace === 'cosmopilot-system' && !l.previous)!
const before = (s: Snapshot, minutes: number) => new Date(Date.parse(s.collectedAt) - minutes * 60_000).toISOString()
const failing = (s: Snapshot, obj: KubeObject, error: string) => {
  for (const minutes of [9, 5, 1]) managerLog(s).text += managerLine(obj, { msg: 'Reconciler error', error, at: before(s, minutes) }, 'rfc3339')
}
const clone = () => structuredClone(healthy)

const NO_CLASS = 'failed to create init pod: pods "fullnode-0-init-data" is forbidden: no PriorityClass with name cosmopilot-default was found'

describe('priority-class-missing reads the release before blaming its name', () => {
  it('release cosmopilot, classes absent: recreate them, no word of a release-name mismatch', () => {
    const s = clone()
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/never installed or were deleted/)
    expect(finding.cause).not.toMatch(/Helm release name \(/)
    expect(finding.action).toMatch(/kubectl create priorityclass cosmopilot-default --value=0/)
    expect(finding.action).not.toMatch(/release name cosmopilot/)
  })

  it('release prod with RELEASE_NAME unset: the names differ, set RELEASE_NAME=prod', () => {
    const s = clone()
    operator(s).metadata.labels!['app.kubernetes.io/instance'] = 'prod'
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/after RELEASE_NAME \(cosmopilot\) while the chart created them after the Helm release name \(prod-…\)/)
    expect(finding.action).toMatch(/kubectl set env deploy\/cosmopilot -n cosmopilot-system -c manager RELEASE_NAME=prod/)
  })

  it('no release label: cannot tell which, with both candidates', () => {
    const s = clone()
    delete operator(s).metadata.labels!['app.kubernetes.io/instance']
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/^cannot tell which: .*another release name.*never installed or were deleted/)
  })
})

const priorityClass = (name: string): KubeObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name } })
/** The classes every API server creates, so a read list is never empty. */
const withClasses = (s: Snapshot, ...names: string[]) => s.objects.push(...['system-cluster-critical', 'system-node-critical', ...names].map(priorityClass))

describe('priority-class-missing reads the cluster’s PriorityClasses where they were read', () => {
  it('classes of release prod exist, no release label: the names differ, set RELEASE_NAME=prod (no longer "cannot tell")', () => {
    const s = clone()
    delete operator(s).metadata.labels!['app.kubernetes.io/instance']
    withClasses(s, 'prod-default', 'prod-nodes', 'prod-validators')
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/after the Helm release name \(prod-…\)/)
    expect(finding.action).toMatch(/RELEASE_NAME=prod/)
    expect(finding.evidence.map((e) => e.text)).toContain('system-cluster-critical, system-node-critical, prod-default, prod-nodes, prod-validators')
  })

  it('release prod by its label but no chart class at all: the classes are absent, create the one the manager wants', () => {
    const s = clone()
    operator(s).metadata.labels!['app.kubernetes.io/instance'] = 'prod'
    withClasses(s)
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/never installed or were deleted/)
    expect(finding.action).toMatch(/^Create the class the manager looks for: kubectl create priorityclass cosmopilot-default --value=0/)
    expect(finding.action).not.toMatch(/helm upgrade prod/)
  })

  it('the class exists now: the refusal predates it, a warning with nothing to change', () => {
    const s = clone()
    withClasses(s, 'cosmopilot-default', 'cosmopilot-nodes', 'cosmopilot-validators')
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.severity).toBe('warning')
    expect(finding.cause).toMatch(/exists now/)
    expect(finding.action).toMatch(/^Nothing to change/)
  })
})

describe('reconcile-failing names what the quota refused', () => {
  it.each([
    [
      'failed to create PVC fullnode-0-wasm: persistentvolumeclaims "fullnode-0-wasm" is forbidden: exceeded quota: storage, requested: requests.storage=100Gi, used: requests.storage=1Ti, limited: requests.storage=1Ti',
      /volumes it creates/,
      /\.spec\.persistence\.size/,
    ],
    [
      'failed to ensure main service for fullnode-0: services "fullnode-0" is forbidden: exceeded quota: svc, requested: services.loadbalancers=1, used: services.loadbalancers=2, limited: services.loadbalancers=2',
      /Services it creates/,
      /\.spec\.expose/,
    ],
    [
      'failed to create pod fullnode-0: pods "fullnode-0" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=7, limited: requests.cpu=8',
      /Pods it creates/,
      /resource requests \(\.spec\.resources\)/,
    ],
  ])('%s', (error, cause, action) => {
    const s = clone()
    failing(s, node(s), error)
    const [finding] = findingsOf(s, 'reconcile-failing')
    expect(finding.cause).toMatch(cause)
    expect(finding.action).toMatch(action)
    if (!/pods/.test(error)) expect(finding.action).not.toMatch(/resource requests/)
  })

  it('never says "records no Event" when a Warning Event carries the error', () => {
    const s = clone()
    const error = 'widget frobnication failed: the frobnicator is offline'
    failing(s, node(s), error)
    expect(findingsOf(s, 'reconcile-failing')[0].cause).toMatch(/records no Event/)
    s.objects.push(operatorEvent(node(s), 'FrobFailed', 'Failed to frobnicate: the frobnicator is offline', before(s, 1)))
    const [finding] = findingsOf(s, 'reconcile-failing')
    expect(finding.cause).not.toMatch(/no Event/)
    expect(finding.cause).toMatch(/Warning Event FrobFailed/)
    expect(finding.evidence.some((e) => e.source.startsWith('Event Warning FrobFailed'))).toBe(true)
  })
})

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

describe('spec-invalid with webhooks disabled', () => {
  it('the bare reconcile error is matched to the spec-invalid line of the same reconcile, not left to the generic fallback', () => {
    const s = clone()
    const error = '.spec.persistence.size: Invalid value: "10Gi": must not shrink'
    managerLog(s).text += managerLine(node(s), { msg: 'spec is invalid', level: 'error', error, at: before(s, 1) }, 'rfc3339')
    failing(s, node(s), error)
    expect(findingsOf(s, 'spec-invalid')).toHaveLength(1)
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
  })
})

describe('config-change-restart', () => {
  it('says nothing of a restart for a spec edit the operator refuses, and never prints two equal hashes as differing', () => {
    const s = clone()
    node(s).metadata.generation = 2
    expect(findingsOf(s, 'config-change-restart')[0].cause).toMatch(/built for generation 1 of the ChainNode, which is now at 2/)
    expect(findingsOf(s, 'config-change-restart')[0].cause).not.toMatch(/differs/)
    // A fresh copy: the log of the first run is split and cached per record.
    const refused = clone()
    node(refused).metadata.generation = 2
    failing(refused, node(refused), 'spec.persistence.size: Invalid value: "10Gi": must not shrink')
    expect(findingsOf(refused, 'config-change-restart')).toEqual([])
  })
})

describe('validator-jailed', () => {
  it('reports a jailed validator with the unjail command and what to check first', () => {
    const s = clone()
    Object.assign(node(s).status, { jailed: true, validatorStatus: 'unbonding', validatorAddress: 'cosmosvaloper1abc', chainID: 'hub-1' })
    node(s).spec.app.app = 'gaiad'
    const [finding] = findingsOf(s, 'validator-jailed')
    expect(finding.severity).toBe('error')
    expect(finding.action).toMatch(/^First fix why it stopped signing/)
    expect(finding.action).toMatch(/gaiad tx slashing unjail --from <validator account> --chain-id hub-1/)
    expect(finding.action).toMatch(/tombstoned/)
  })

  it('trusts a fresh status over an older ValidatorJailed Event that a ValidatorUnjailed followed', () => {
    const s = clone()
    Object.assign(node(s).status, { jailed: false, validatorStatus: 'bonded' })
    s.objects.push(operatorEvent(node(s), 'ValidatorJailed', 'Validator is jailed', before(s, 30)))
    s.objects.push(operatorEvent(node(s), 'ValidatorUnjailed', 'Validator was successfully unjailed', before(s, 5), 'Normal'))
    expect(findingsOf(s, 'validator-jailed')).toEqual([])
  })

  it('reads the Event while the status is stale (phase not Running)', () => {
    const s = clone()
    Object.assign(node(s).status, { jailed: false, phase: 'Syncing' })
    s.objects.push(operatorEvent(node(s), 'ValidatorJailed', 'Validator is jailed', before(s, 5)))
    const [finding] = findingsOf(s, 'validator-jailed')
    expect(finding.cause).toMatch(/read from the ValidatorJailed Event; \.status is not refreshed in phase Syncing/)
  })
})

describe('a healthy bundle with benign operator lines stays clean', () => {
  it('Normal Events and a state-sync notice on a node that serves no snapshots give no finding', () => {
    const s = clone()
    for (const [reason, message] of [
      ['GenesisImported', 'Genesis downloaded using specified URL'],
      ['NodeRunning', 'Node is synced and running'],
      ['PvcResized', 'Data volume was resized to 150Gi'],
      ['ValidatorUnjailed', 'Validator was successfully unjailed'],
      ['TarballFinished', 'Finished exporting tarball x'],
    ])
      s.objects.push(operatorEvent(node(s), reason, message, before(s, 2), 'Normal'))
    s.objects.push(operatorEvent(node(s), 'NoTrustHeight', 'not adding state-sync details: no state-sync snapshots available', before(s, 1), 'Warning', 240))
    expect(runAllRules(s).findings).toEqual([])
  })
})
