import { beforeAll, describe, expect, it } from 'vitest'
import { OPERATOR_VERSION, VOCABULARY, type VocabularyEntry } from '../../../../src/rules/vocabulary/index.js'
import { runRules } from '../../../../src/engine/run-rules.js'
import type { Finding, Rule } from '../../../../src/engine/define-rule.js'
import { RULES } from '../../../../src/rules/index.js'
import { SnapshotIndex } from '../../../../src/snapshot/index.js'
import type { Snapshot } from '../../../../src/snapshot/types.js'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from '../../../helpers/cli.js'
import { renderVocabularyDoc, VOCABULARY_DOC } from '../../../../scripts/gen-vocabulary-docs.js'
import { managerLine, operatorEvent, type TsForm } from '../../../helpers/operator-records.js'
import { type Editable, findObject, loadBundle } from '../../../helpers/bundles.js'

/**
 * One recorded case per catalogue entry: the operator's message, placed in the healthy bundle where the
 * operator writes it (an Event as the API server stores it, a manager log line as controller-runtime writes it,
 * a status field), must give the entry's rule a finding — and no finding of that rule without it.
 */
interface Sample {
  text: string
  /** On the ChainNodeSet rather than the standalone node. */
  set?: boolean
  /** Status entries: how the object's status reads. */
  status?: (obj: Editable) => void
  /** What else the case needs (a spec field). */
  setup?: (s: Snapshot) => void
}

const SAMPLES: Record<string, Sample> = {
  'event/ValidatorJailed': { text: 'Validator is jailed' },
  'status/jailed': { text: '', status: (o) => Object.assign(o.status, { jailed: true, validatorStatus: 'unbonding', validator: true }) },
  'status/validatorStatus': { text: '', status: (o) => Object.assign(o.status, { jailed: false, validatorStatus: 'unbonded', validator: true }) },
  'event/FailedCreateValidator': { text: 'failed to create-validator: insufficient funds: 10uatom is smaller than 1000000uatom' },
  'reconcile-error/validator-not-found': { text: 'validator not found' },
  'reconcile-error/consensus-key-secret-missing': { text: 'secrets "fullnode-0-priv-key" not found' },
  'reconcile-error/account-secret-missing': { text: 'failed to get account secret: secrets "fullnode-0-account" not found' },
  'event/PvcMaxSizeReached': { text: 'Data volume reached maximum allowed size (2Ti)' },
  'status/dataUsage': { text: '', status: (o) => (o.status.dataUsage = '97%') },
  'reconcile-error/resize-pvc': {
    text: 'failed to resize PVC fullnode-0: persistentvolumeclaims "fullnode-0" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
  },
  'event/DataInitFailed': { text: 'Data initialization pod failed: init-command-0: exit code 22' },
  'reconcile-error/create-pvc': {
    text: 'failed to create PVC fullnode-0-wasm: persistentvolumeclaims "fullnode-0-wasm" is forbidden: exceeded quota: storage-quota, requested: requests.storage=100Gi, used: requests.storage=950Gi, limited: requests.storage=1Ti',
  },
  'event/NoPeers': { text: 'not restoring from state-sync: could not find other peers for this chain' },
  'event/NoTrustHeight-restore': { text: 'not restoring from state-sync: no chainnode with valid trust height config is available' },
  'log/state-sync-no-peers': { text: 'not restoring from state-sync: could not find other peers for this chain' },
  'log/state-sync-no-trust-height': { text: 'not restoring from state-sync: no chainnode with valid trust height config is available' },
  'event/NoTrustHeight-list': {
    text: 'not adding state-sync details: failed to list state-sync snapshots for fullnode-0: Get "http://fullnode-0-internal.sc-healthy.svc.cluster.local:8000/snapshots": dial tcp 10.96.0.12:8000: connect: connection refused',
  },
  'event/NoTrustHeight-no-snapshots': {
    text: 'not adding state-sync details: no state-sync snapshots available',
    setup: (s) => (node(s).spec.config = { ...node(s).spec.config, stateSync: { snapshotInterval: 1000 } }),
  },
  'event/NoTrustHeight-no-hashes': { text: 'not adding state-sync details: no valid state-sync snapshot heights with retrievable block hashes' },
  'event/NoTrustHeight-hash': {
    text: 'not adding state-sync details: failed to get block hash at height 1200001 for fullnode-0: height 1200001 is not available, lowest height is 1300000',
  },
  'event/NoTrustHeight-serving': {
    text: 'not adding state-sync details: a wording this catalogue has not read yet',
    setup: (s) => (node(s).spec.config = { ...node(s).spec.config, stateSync: { snapshotInterval: 1000 } }),
  },
  'event/UpgradeMissingData': { text: 'Missing upgrade or image for upgrade at height 1200000' },
  'reconcile-error/missing-upgrade': { text: 'missing upgrade or image for height 1200000' },
  'event/UpgradeFailed': { text: 'Failed to restart for upgrade: pods "fullnode-0" already exists' },
  'event/NodeError-upgrade': { text: 'Pod failed to start after upgrade: timed out waiting for the condition' },
  'error-log/upgrade-plans': { text: 'could not retrieve upgrade plans|rpc error: code = Unavailable desc = connection refused' },
  'event/GenesisError-url': { text: 'Failed to download genesis from URL: 404 Not Found' },
  'event/GenesisError-rpc': { text: 'Failed to retrieve genesis from RPC node: dial tcp 10.0.0.9:26657: connect: connection refused' },
  'event/GenesisError-configmap': { text: 'Failed to load genesis from ConfigMap: configmaps "hub-genesis" not found' },
  'reconcile-error/genesis-url': { text: 'failed to retrieve genesis from URL https://example.org/genesis.json: unexpected status code 404' },
  'reconcile-error/genesis-rpc': { text: 'failed to retrieve genesis from RPC endpoint http://10.0.0.9:26657/genesis: connection refused' },
  'reconcile-error/genesis-configmap': { text: 'failed to load genesis from ConfigMap hub-genesis: configmaps "hub-genesis" not found' },
  'reconcile-error/genesis-no-method': { text: 'genesis could not be retrived using any of the available methods' },
  'reconcile-error/genesis-chain-id': { text: 'failed to extract chainID from retrieved genesis: invalid character < looking for beginning of value' },
  'event/InitGenesisFail': { text: 'Failed to initialize new genesis: exit code 1' },
  'reconcile-error/init-genesis': { text: 'failed to initialize genesis: failed to generate new genesis: timed out waiting for the condition' },
  'reconcile-error/genesis-accounts': { text: 'failed to get chain node account val-2: chainnodes.cosmopilot.voluzi.com "val-2" not found' },
  'reconcile-error/start-timeout': { text: 'timeout waiting for container gaiad to start in pod fullnode-0: timed out waiting for the condition' },
  'event/NodeError': { text: 'Pod failed to start: timed out waiting for the condition', setup: (s) => (node(s).status.phase = 'Error') },
  'status/phase-Error': { text: '', status: (o) => (o.status.phase = 'Error') },
  'status/phase-transitional': {
    text: '',
    status: (o) => Object.assign(o.status, { phase: 'InitializingData' }),
    setup: (s) => appendSince(s, 'InitializingData'),
  },
  'reconcile-error/pod-not-deleted': { text: 'timeout waiting for pod fullnode-0 to be deleted: timed out waiting for the condition' },
  'reconcile-error/create-pod': {
    text: 'failed to create pod fullnode-0: pods "fullnode-0" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=7, limited: requests.cpu=8',
  },
  'reconcile-error/node-unreachable': {
    text: 'failed to check if node fullnode-0 is syncing: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.0.12:9090: connect: connection refused"',
  },
  'reconcile-error/p2p-exposure': { text: 'timeout waiting for LoadBalancer address for service fullnode-0-p2p: context deadline exceeded' },
  'reconcile-error/disruption': { text: '2 pods are unavailable' },
  'event/TarballExportError-missing': { text: 'Tarball cosmoshub-4-20261122060723 export job not found; retrying' },
  'event/TarballExportError-failed': { text: 'Tarball cosmoshub-4-20261122060723 export failed; retry limit reached; remove the export annotations to retry' },
  'event/TarballExportError-other': { text: 'Error on tarball export jobs.batch "cosmoshub-4-20261122060723-upload" is forbidden' },
  'event/TarballDeleteError-retained': { text: 'Failed deleting tarball cosmoshub-4-20261101000000.tar.gz; delete Job retained for inspection' },
  'event/TarballDeleteError-retry': {
    text: 'Delete attempt 2 for snap-export-1 failed: AccessDenied: Access Denied; retry after 2026-11-22T13:22:00Z',
  },
  'event/TarballCleanupRequired': { text: 'snapshot export snap-export-1 (s3://chain-snapshots) requires cleanup after 3 delete attempts: AccessDenied' },
  'status/SnapshotExportCleanup': {
    text: '',
    status: (o) => (o.status.conditions = [{ type: 'SnapshotExportCleanup', status: 'True', reason: 'TarballCleanupRequired', message: 'x' }]),
  },
  'event/TarballCleanupAcknowledged': { text: 'Snapshot export cleanup snap-export-1 was explicitly acknowledged without deletion proof' },
  'reconcile-error/export-credentials': { text: 'get snapshot export credentials Secret "s3-creds": secrets "s3-creds" not found' },
  'reconcile-error/export-job-cleanup': { text: 'clean up failed tarball export job: jobs.batch "x-upload" is forbidden' },
  'error-log/integrity-cleanup': { text: 'failed to clean up integrity check resources|persistentvolumeclaims "snap-ichk" is forbidden' },
  'event/VPAEmergencyScaleUp': { text: 'Emergency memory scale-up due to OOM: 4Gi -> 6Gi (recovery 1/3)' },
  'event/VPAOOMRecoveryLimitReached': { text: 'OOM recovery limit reached (3/3 in 1h0m0s). Possible memory leak - manual intervention required.' },
  'error-log/oom-recovery': { text: 'failed to handle OOM recovery|no memory request found for OOM recovery' },
  'reconcile-error/vpa-request': { text: 'no memory request found' },
  'event/UploadFailed': { text: 'Failed to upload validator key to Vault: Error making API request. Code: 403. Errors: permission denied' },
  'event/ConsensusKeyReservationBlocked': {
    text: 'consensus key reservation conflict: consensus key on chain "cosmoshub-4" is already reserved by ChainNode other/val-0 (UID 1234)',
  },
  'reconcile-error/signing-key-mismatch': {
    text: 'validator signing public key does not match the on-chain public key recorded in status; Cosmopilot does not rotate validator consensus keys',
  },
  'reconcile-error/signing-key-missing': {
    text: 'cosmosigner software key secret "val-0-priv-key" not found: provide the consensus key registered on-chain — refusing to roll out a signer with no key',
  },
  'reconcile-error/cosmosigner-removal': { text: 'cosmosigner cannot be removed: the validator it served has no fallback signing path' },
  'reconcile-error/cosmosigner-immutable': {
    text: 'cosmosigner replicas are immutable after deployment: changing them does not migrate the raft membership and can break quorum',
  },
  'reconcile-error/cosmosigner-status-lost': {
    text: 'cosmosigner "val-0-signer" is live but its target pod is missing: restore the recorded target status before recovery',
  },
  'event/Invalid': { text: 'spec is invalid: .spec.persistence.size: must not shrink' },
  'error-log/spec-invalid': { text: 'spec is invalid|.spec.persistence.size: must not shrink' },
  'error-log/validation-warnings': { text: 'validation warnings|' },
  'reconcile-error/ownership': { text: 'ChainNode Service "fullnode-0-internal" is managed by another owner; refusing to overwrite it' },
  'reconcile-error/durable-cleanup': {
    text: 'refusing durable cleanup while pod sc-healthy/fullnode-0-debug is not controlled by ChainNode UID 7b0c3a56-0000-4000-8000-000000000000',
  },
  'reconcile-error/reservation-inconsistent': {
    text: 'reservation "consensus-key-abc" matches ChainNode UID "7b0c" but has inconsistent owner or claim metadata',
  },
  'set/event/Invalid': { set: true, text: 'spec is invalid: .spec.nodes[0].instances: must be at least 1' },
  'set/error-log/spec-invalid': { set: true, text: 'spec is invalid|.spec.nodes[0].instances: must be at least 1' },
  'set/reconcile-error/webhooks-disabled': {
    set: true,
    text: 'cosmosigner "hub-signer" cannot be removed together with validator group "validators" (webhooks disabled): the validator would have no signing path',
  },
  'set/event/GenesisError': { set: true, text: 'Failed to download genesis from URL: dial tcp: lookup example.invalid: no such host' },
  'set/reconcile-error/genesis': {
    set: true,
    text: 'Get "https://example.invalid/genesis.json": dial tcp: lookup example.invalid on 10.96.0.10:53: no such host',
  },
  'set/status/phase-Initializing': { set: true, text: '', status: (o) => (o.status = { phase: 'Initializing' }) },
  'set/event/CosmosignerMigrationPending': {
    set: true,
    text: 'cosmosigner "hub-signer" is rolled out; waiting for 1 target ChainNode(s) to become healthy on the new remote-signer path: hub-fullnodes-0',
  },
  'set/event/UploadFailed': { set: true, text: 'failed to import cosmosigner key to GCP KMS: rpc error: code = PermissionDenied' },
  'set/event/ConsensusKeyReservationBlocked': {
    set: true,
    text: 'consensus key reservation conflict: consensus key on chain "cosmoshub-4" is already reserved by ChainNodeSet other/hub (UID 99)',
  },
  'set/reconcile-error/cosmosigner': { set: true, text: 'cosmosigner "hub-signer" targets missing validator group "validators"' },
  'set/reconcile-error/child-timeout': { set: true, text: 'timeout waiting for chainnode hub-fullnodes-1 running or syncing status' },
  'set/reconcile-error/ownership': { set: true, text: 'refusing to adopt unrecorded ChainNode sc-healthy/hub-fullnodes-2' },
  'set/reconcile-error/seed-migration': { set: true, text: 'waiting for legacy Cosmoseed StatefulSet claim-template migration' },
  'set/reconcile-error/labels': { set: true, text: 'list of labels must contain pairs of key-value' },
}

let healthy: Snapshot
const node = (s: Snapshot) => findObject(s, 'ChainNode', 'fullnode-0')
const set = (s: Snapshot) => findObject(s, 'ChainNodeSet', 'hub')
const managerLog = (s: Snapshot) => s.logs.find((l) => l.container === 'manager' && l.namespace === 'cosmopilot-system' && !l.previous)!
const minutesBefore = (s: Snapshot, minutes: number) => new Date(Date.parse(s.collectedAt) - minutes * 60_000).toISOString()

/** The node entered a phase three hours before collection (what phase-stuck dates it by). */
function appendSince(s: Snapshot, phase: string): void {
  const obj = node(s)
  obj.metadata.annotations = obj.metadata.annotations ?? {}
  managerLog(s).text += managerLine(obj, { msg: 'updating .status.phase', phase, at: minutesBefore(s, 180) }, 'rfc3339')
}

/** The healthy bundle with the operator saying the sample where it says it. */
function withSample(entry: VocabularyEntry, sample: Sample, form: TsForm): Snapshot {
  const s = structuredClone(healthy)
  const obj = sample.set ? set(s) : node(s)
  sample.setup?.(s)
  const [msg, error] = sample.text.split('|')
  if (entry.channel === 'event') s.objects.push(operatorEvent(obj, entry.reason!, sample.text, minutesBefore(s, 2)))
  if (entry.channel === 'status') sample.status!(obj)
  if (entry.channel === 'reconcile-error')
    for (const minutes of [6, 3, 1])
      managerLog(s).text += managerLine(obj, { msg: 'Reconciler error', error: sample.text, at: minutesBefore(s, minutes) }, form)
  if (entry.channel === 'error-log') managerLog(s).text += managerLine(obj, { msg, level: 'error', error: error || undefined, at: minutesBefore(s, 1) }, form)
  if (entry.channel === 'log') managerLog(s).text += managerLine(obj, { msg: sample.text, level: 'info', at: minutesBefore(s, 1) }, form)
  return s
}

const findingsOf = (s: Snapshot, rules: readonly Rule<object>[] = RULES) => runRules(new SnapshotIndex(s), rules).findings
const ofRule = (findings: Finding[], rule: string) => findings.filter((f) => f.ruleId === rule)

beforeAll(async () => {
  healthy = await loadBundle('healthy')
})

describe(`the operator's vocabulary (${OPERATOR_VERSION})`, () => {
  it('lists 60 entries or more, each with a unique id, a rule, a cause and an action', () => {
    expect(VOCABULARY.length).toBeGreaterThanOrEqual(60)
    expect(new Set(VOCABULARY.map((e) => e.id)).size).toBe(VOCABULARY.length)
    for (const entry of VOCABULARY) {
      expect(RULES.map((r) => r.id)).toContain(entry.rule)
      expect(entry.cause.length).toBeGreaterThan(10)
      expect(entry.action.length).toBeGreaterThan(2)
      if (entry.channel === 'event') expect(entry.reason).toBeTruthy()
    }
  })

  // rules/vocabulary/ follows the operator's source: one module per part of the ChainNode controller, one for the ChainNodeSet controller.
  it("gathers every part of the operator once, the ChainNode controller's parts before the ChainNodeSet controller's", async () => {
    const files = readdirSync(path.join(ROOT, 'src', 'rules', 'vocabulary', 'chainnode')).map((file) => file.replace(/\.ts$/, ''))
    const partOf = async (name: string) => Object.values(await import(`../../../../src/rules/vocabulary/chainnode/${name}.ts`)) as VocabularyEntry[][]
    const nodeParts = (await Promise.all(files.map(partOf))).flat()
    const { CHAINNODESET } = await import('../../../../src/rules/vocabulary/chainnodeset.js')
    expect(nodeParts.length).toBe(files.length)
    for (const part of nodeParts) expect([...new Set(part.map((entry) => entry.kind))]).toEqual(['ChainNode'])
    expect([...new Set(CHAINNODESET.map((entry) => entry.kind))]).toEqual(['ChainNodeSet'])
    const gathered = [...nodeParts.flat(), ...CHAINNODESET]
    expect(gathered.length).toBe(VOCABULARY.length)
    expect(VOCABULARY.filter((entry) => !gathered.includes(entry)).map((entry) => entry.id)).toEqual([])
    expect(VOCABULARY.slice(-CHAINNODESET.length)).toEqual(CHAINNODESET)
  })

  it('is written out in docs/operator-vocabulary.md (npx tsx scripts/gen-vocabulary-docs.ts)', () => {
    expect(readFileSync(VOCABULARY_DOC, 'utf8')).toBe(renderVocabularyDoc())
  })

  it('has a recorded case for every entry and none for an unknown one', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(VOCABULARY.map((e) => e.id).sort())
  })

  it('the healthy bundle stays clean of every rule the vocabulary names', () => {
    const rules = new Set(VOCABULARY.map((e) => e.rule))
    expect(findingsOf(healthy).filter((f) => rules.has(f.ruleId))).toEqual([])
  })

  const forms: TsForm[] = ['rfc3339', 'epoch']
  for (const entry of VOCABULARY) {
    const logged = entry.channel === 'reconcile-error' || entry.channel === 'error-log' || entry.channel === 'log'
    for (const form of logged ? forms : (['rfc3339'] as TsForm[]))
      it(`${entry.id}${logged ? ` (ts ${form})` : ''} is a finding of ${entry.rule}`, () => {
        const sample = SAMPLES[entry.id]
        const s = withSample(entry, sample, form)
        const subject = sample.set ? 'ChainNodeSet' : 'ChainNode'
        const own = ofRule(findingsOf(s), entry.rule)
        expect(own.length, `no ${entry.rule} finding`).toBeGreaterThan(0)
        const data = own.map((f) => f.data as { entries?: string[] })
        if (data[0].entries) {
          expect(data.flatMap((d) => d.entries)).toContain(entry.id)
          expect(own.some((f) => f.subject.kind === subject)).toBe(true)
        }
        for (const finding of own) {
          expect(finding.action).not.toMatch(/\{[a-zA-Z]+\}/)
          expect(finding.cause).not.toMatch(/records no Event/)
        }
        // Nothing generic speaks for what the catalogue knows.
        if (entry.rule !== 'reconcile-failing') expect(ofRule(findingsOf(s), 'reconcile-failing')).toEqual([])
        // The sample is what the rule reports: the same bundle without it gives the rule nothing.
        expect(
          ofRule(
            findingsOf(
              healthy,
              RULES.filter((r) => r.id === entry.rule),
            ),
            entry.rule,
          ),
        ).toEqual([])
      })
  }
})
