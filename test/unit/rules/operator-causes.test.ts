import { beforeAll, describe, expect, it } from 'vitest'
import { sameFailure } from '../../../src/analysis/operator-said.js'
import { classifyReconcileError } from '../../../src/analysis/reconcile-causes.js'
import type { Finding } from '../../../src/engine/define-rule.js'
import { runRules } from '../../../src/engine/run-rules.js'
import { RULES } from '../../../src/rules/index.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { KubeObject, Snapshot } from '../../../src/snapshot/types.js'
import { findObject, loadBundle } from '../../helpers/bundles.js'
import { managerLine, operatorEvent } from '../../helpers/operator-records.js'
import { formatErrorEvent } from '../../helpers/go-format.js'

/**
 * The specific cause in the operator's words, where the issue found only a family: a LimitRange refusing the
 * init Pod, a key backend denying the import, a quota full of Jobs, a node stuck in Restarting, a set waiting for a
 * node, the state-sync Events against the node's own height, and a validator without its key Secret.
 */
let healthy: Snapshot
beforeAll(async () => {
  healthy = await loadBundle('healthy')
})

const NS = 'sc-healthy'
const before = (s: Snapshot, seconds: number) => new Date(Date.parse(s.collectedAt) - seconds * 1000).toISOString()
const managerLog = (s: Snapshot) => s.logs.find((l) => l.container === 'manager' && l.namespace === 'cosmopilot-system' && !l.previous)!
const node = (s: Snapshot, name = 'fullnode-0') => findObject(s, 'ChainNode', name)
const findingsOf = (s: Snapshot, rule: string): Finding[] => runRules(new SnapshotIndex(s), RULES).findings.filter((f) => f.ruleId === rule)

/** The real manager's backoff: the same error a few times within seconds. */
function failing(s: Snapshot, obj: KubeObject, error: string, seconds = [9, 5, 2]): void {
  for (const ago of seconds) managerLog(s).text += managerLine(obj, { msg: 'Reconciler error', error, at: before(s, ago) }, 'rfc3339')
}

const LIMIT_RANGE = 'failed to create init pod: pods "fullnode-0-init-data" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi'

describe('a LimitRange refusing the init Pod (the real manager, seconds after the node is created)', () => {
  it('is an error with the bound against the limit, and the action names the field and the LimitRange command', () => {
    const s = structuredClone(healthy)
    node(s).status.phase = 'InitializingData'
    failing(s, node(s), LIMIT_RANGE)
    const [finding] = findingsOf(s, 'reconcile-failing')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(
      /a LimitRange of the namespace refuses the Pod it creates \(a LimitRange allows at most 1Gi memory per Container, and Pod fullnode-0-init-data asks 2Gi \(its limit\)\)/,
    )
    // The real init Pod asks resources only through the node's additional init commands: .spec.resources cannot help.
    expect(finding.action).toBe(
      'Set the memory limit of the additional init commands of fullnode-0 at or below 1Gi (kubectl edit chainnode fullnode-0 -n sc-healthy: ' +
        ".spec.persistence.additionalInitCommands[].resources, the only resources its data init Pod asks for), or change the LimitRange's maximum (kubectl describe limitrange -n sc-healthy).",
    )
  })

  it('a single failure stays a warning', () => {
    const s = structuredClone(healthy)
    failing(s, node(s), LIMIT_RANGE, [2])
    expect(findingsOf(s, 'reconcile-failing')[0].severity).toBe('warning')
  })
})

describe('a node stuck in Restarting gets its own cause, not only the circular text', () => {
  const restarting = (s: Snapshot) => {
    node(s).status.phase = 'Restarting'
    managerLog(s).text += managerLine(node(s), { msg: 'updating .status.phase', phase: 'Restarting', at: before(s, 40 * 60) }, 'rfc3339')
  }

  it('a LimitRange refusing the recreated Pod', () => {
    const s = structuredClone(healthy)
    restarting(s)
    failing(s, node(s), 'failed to recreate pod fullnode-0: pods "fullnode-0" is forbidden: maximum cpu usage per Pod is 4, but limit is 8')
    const [finding] = findingsOf(s, 'phase-stuck')
    expect(finding.cause).toBe('the node cannot leave Restarting: a LimitRange allows at most 4 cpu per Pod, and Pod fullnode-0 asks 8 (its limit)')
    expect(finding.action).toMatch(/Set the cpu limit of fullnode-0 at or below 4/)
  })

  it('the old Pod that never finished terminating, read off the Pod itself', () => {
    const s = structuredClone(healthy)
    restarting(s)
    const pod = s.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'fullnode-0')!
    pod.metadata.deletionTimestamp = before(s, 35 * 60)
    Object.assign(pod.metadata, { finalizers: ['example.com/backup'] })
    const [finding] = findingsOf(s, 'phase-stuck')
    expect(finding.cause).toMatch(
      /^the node cannot leave Restarting: the old Pod fullnode-0 has been terminating since .* \(finalizers: example\.com\/backup\)/,
    )
    expect(finding.action).toMatch(/kubectl get pod fullnode-0 -n sc-healthy -o jsonpath/)
    expect(finding.evidence.some((e) => e.text.includes('.metadata.deletionTimestamp'))).toBe(true)
  })

  it("the operator's own timeout waiting for it", () => {
    const s = structuredClone(healthy)
    restarting(s)
    failing(s, node(s), 'timeout waiting for pod fullnode-0 to be deleted: timed out waiting for the condition')
    const [finding] = findingsOf(s, 'phase-stuck')
    expect(finding.cause).toBe("the node cannot leave Restarting: the old Pod fullnode-0 did not finish terminating within the operator's 2m")
  })
})

describe('key backends, quotas and stores, in their own words', () => {
  it('Vault: the Event FormatErrorEvent shortened and the full reconcile error give the status, method and path', () => {
    const s = structuredClone(healthy)
    const error =
      'Error making API request.\n\nURL: PUT https://vault.vault.svc:8200/v1/transit/keys/fullnode-0/import\nCode: 403. Errors:\n\n* permission denied'
    s.objects.push(operatorEvent(node(s), 'UploadFailed', formatErrorEvent('Failed to upload validator key to Vault', error), before(s, 60)))
    failing(s, node(s), error)
    const [finding] = findingsOf(s, 'signing-key-blocked')
    expect(finding.cause).toMatch(/Vault answers 403 permission denied to PUT \/v1\/transit\/keys\/fullnode-0\/import/)
    expect(finding.action).toMatch(/^Grant the Vault token the operator uses .* update\/create on \/v1\/transit\/keys\/fullnode-0\/import/)
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
  })

  it('GCP KMS: the permission, the resource, and the role that grants it', () => {
    const match = classifyReconcileError(
      "failed to import cosmosigner key to GCP KMS: rpc error: code = PermissionDenied desc = Permission 'cloudkms.importJobs.useToImport' denied on resource 'projects/p/locations/global/keyRings/r/importJobs/j' (or it may not exist).",
    )
    expect(match).toMatchObject({
      cause: 'permission-denied',
      facts: { permission: 'cloudkms.importJobs.useToImport', resource: 'projects/p/locations/global/keyRings/r/importJobs/j' },
    })
  })

  it('a ResourceQuota full of Jobs: used 10 of 10, and the command that shows it', () => {
    const s = structuredClone(healthy)
    const text =
      'Error on tarball export jobs.batch "cosmoshub-4-1-upload" is forbidden: exceeded quota: jobs, requested: count/jobs.batch=1, used: count/jobs.batch=10, limited: count/jobs.batch=10'
    s.objects.push(operatorEvent(node(s), 'TarballExportError', text, before(s, 60)))
    const [finding] = findingsOf(s, 'snapshot-export-failing')
    expect(finding.cause).toMatch(/: ResourceQuota jobs is full: count\/jobs\.batch used 10 of 10, asks 1 more$/)
    expect(finding.action).toMatch(/^Raise ResourceQuota jobs in sc-healthy \(kubectl describe resourcequota jobs -n sc-healthy\), or delete the finished Jobs/)
  })

  it("a store's HTTP status, where its answer reaches the operator's words", () => {
    expect(classifyReconcileError('delete failed: AccessDenied: Access Denied (Service: S3, Status Code: 403) bucket "chain-snapshots"')).toMatchObject({
      cause: 'remote-store',
      facts: { status: '403', code: 'AccessDenied', bucket: 'chain-snapshots' },
    })
  })
})

describe('a missing object that stops a validator is an error of its own', () => {
  it('the consensus key Secret: an error of signing-key-blocked that says what cannot happen, never reconcile-failing', () => {
    const s = structuredClone(healthy)
    failing(s, node(s), 'Secret "fullnode-0-consensus-key" not found')
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
    const [finding] = findingsOf(s, 'signing-key-blocked')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(/cannot sign blocks, .* until it does: Secret fullnode-0-consensus-key does not exist$/)
    expect(finding.action).toMatch(/^Create Secret fullnode-0-consensus-key in sc-healthy/)
    // One step, said once (the entry's action names the Secret already).
    expect(finding.action.match(/Create Secret/g)).toHaveLength(1)
  })

  it('the key Secret the validator names, whatever its name says (.spec.validator.privateKeySecret)', () => {
    const s = structuredClone(healthy)
    node(s).spec.validator = { privateKeySecret: 'hub-signing' }
    // The manager's cached client words the NotFound with the kind: Secret "<name>" not found.
    failing(s, node(s), 'Secret "hub-signing" not found')
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
    const [finding] = findingsOf(s, 'signing-key-blocked')
    expect(finding).toMatchObject({ severity: 'error', data: { entry: 'reconcile-error/consensus-key-secret-missing' } })
    expect(finding.cause).toMatch(/until it does: Secret hub-signing does not exist$/)
    expect(finding.action).toMatch(/^Create Secret hub-signing in sc-healthy/)
  })

  it('another Secret of the same name pattern is not the key of a node that is no validator', () => {
    const s = structuredClone(healthy)
    delete node(s).spec.validator
    failing(s, node(s), 'Secret "hub-signing" not found')
    expect(findingsOf(s, 'signing-key-blocked')).toEqual([])
    expect(findingsOf(s, 'reconcile-failing')).toHaveLength(1)
  })
})

describe('the generic text and Events', () => {
  it('an Event FormatErrorEvent cut to its last part, or at 256 characters, is the same failure', () => {
    const chain = 'a: b: c: the frobnicator refused the request'
    expect(sameFailure(formatErrorEvent('Failed to frob', chain), chain)).toBe(true)
    const long = `failed to do it: ${'x'.repeat(300)} tail`
    expect(sameFailure(formatErrorEvent('Error', long), long)).toBe(true)
    expect(sameFailure('Failed to frob: something else entirely', chain)).toBe(false)
  })
})

describe('a set waiting for one of its nodes says what that node is waiting on', () => {
  it("carries the node's own top cause inline", () => {
    const s = structuredClone(healthy)
    const set = findObject(s, 'ChainNodeSet', 'hub')
    const child = node(s, 'hub-fullnodes-1')
    child.status.phase = 'InitializingData'
    failing(s, set, 'timeout waiting for chainnode hub-fullnodes-1 running or syncing status')
    failing(s, child, 'failed to create init pod: pods "hub-fullnodes-1-init-data" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi')
    const [finding] = findingsOf(s, 'set-rollout-blocked')
    expect(finding.cause).toMatch(
      /; hub-fullnodes-1: its reconcile fails: a LimitRange allows at most 1Gi memory per Container, and Pod hub-fullnodes-1-init-data asks 2Gi/,
    )
    expect(finding.action).toMatch(/^Fix what holds hub-fullnodes-1/)
  })
})

describe("state sync, against the node's own height", () => {
  const probe = (s: Snapshot, height: number, catchingUp: boolean, nodeUtils?: { problems: string[]; latestHeight?: number }) =>
    s.probes.push({
      kind: 'chain',
      namespace: NS,
      pod: 'fullnode-0',
      target: 'fullnode-0:26657',
      ok: true,
      detail: `height ${height}`,
      at: s.collectedAt,
      chain: {
        status: { at: s.collectedAt, height, catchingUp, earliestHeight: 1, network: 'cosmoshub-4', nodeId: 'abc' },
        ...(nodeUtils ? { nodeUtils: { port: 8000, at: s.collectedAt, ...nodeUtils } } : {}),
        problems: [],
      },
    })
  const noPeers = (s: Snapshot) =>
    s.objects.push(operatorEvent(node(s), 'NoPeers', 'not restoring from state-sync: could not find other peers for this chain', before(s, 120)))

  it('a restore the operator could not set up, on a node replaying the chain from its first blocks', () => {
    const s = structuredClone(healthy)
    noPeers(s)
    probe(s, 1200, true)
    const [finding] = findingsOf(s, 'state-sync-blocked')
    expect(finding.cause).toMatch(/; its own \/status: height 1200, catching_up true: it replays the chain block by block instead of restoring$/)
  })

  it('is over once the node is synced', () => {
    const s = structuredClone(healthy)
    noPeers(s)
    probe(s, 21_000_000, false)
    expect(findingsOf(s, 'state-sync-blocked')).toEqual([])
  })

  it('the snapshot list the operator cannot read: a finding on a node that serves none too, with what our own probe saw', () => {
    const s = structuredClone(healthy)
    const text =
      'not adding state-sync details: failed to list state-sync snapshots for fullnode-0: Get "http://fullnode-0-internal.sc-healthy.svc.cluster.local:8000/snapshots": dial tcp 10.96.0.12:8000: connect: connection refused'
    s.objects.push(operatorEvent(node(s), 'NoTrustHeight', text, before(s, 30)))
    probe(s, 500, false, { problems: ['GET /latest_height: connection refused'] })
    const [finding] = findingsOf(s, 'state-sync-blocked')
    expect(finding.severity).toBe('warning')
    expect(finding.cause).toMatch(
      /cannot read the node's state-sync snapshot list .*: 10\.96\.0\.12:8000 answers connection refused; node-utils did not answer our probe either/,
    )
  })

  it('"no state-sync snapshots available" on a node that serves none is routine', () => {
    const s = structuredClone(healthy)
    s.objects.push(operatorEvent(node(s), 'NoTrustHeight', 'not adding state-sync details: no state-sync snapshots available', before(s, 30)))
    expect(findingsOf(s, 'state-sync-blocked')).toEqual([])
  })
})
