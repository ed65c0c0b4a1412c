import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readBundle, writeBundle } from '../../../src/snapshot/bundle.js'
import { decide, type KeyHolder } from '../../../src/analysis/key-holders.js'
import { diagnose } from '../../../src/app/doctor.js'
import { narrowToScope } from '../../../src/app/snapshots.js'
import type { Rule } from '../../../src/engine/define-rule.js'
import { RULES } from '../../../src/rules/index.js'
import { nodesOf, onsetOf, type Finding } from '../../../src/engine/define-rule.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { fourValidators } from '../../helpers/chain-commits.js'
import { editable } from '../../helpers/bundles.js'
import { useHealthy } from '../../helpers/healthy-edits.js'
import { asValidator, findingsAtProbe as findingsOf, PROBE_AT as at, runAtProbe as run } from '../../helpers/validator-probes.js'

const clone = useHealthy()
const NS = 'sc-healthy'
const PRIMARY = `${NS}/hub-fullnodes-0`
const STANDBY = `${NS}/hub-fullnodes-1`
const val1 = fourValidators.genesis['val-1'].address as string

/** hub-fullnodes-0 signs as val-1 at the tip; hub-fullnodes-1 presents the same key, as `standby` makes it. */
function twoHolders(standby: { height?: number; power?: number; as?: string; created?: string; primaryCreated?: string } = {}): Snapshot {
  const snapshot = clone()
  asValidator(snapshot, 'hub-fullnodes-0', 'val-1')
  const record = asValidator(snapshot, 'hub-fullnodes-1', standby.as ?? 'val-1', { presents: val1, power: standby.power })
  if (standby.height !== undefined) record.chain!.status!.height = standby.height
  const node = (name: string) => editable(snapshot).find((o) => o.kind === 'ChainNode' && o.metadata.name === name)!
  if (standby.created) node('hub-fullnodes-1').metadata.creationTimestamp = standby.created
  if (standby.primaryCreated) node('hub-fullnodes-0').metadata.creationTimestamp = standby.primaryCreated
  return snapshot
}

const holdersOf = (f: Finding) =>
  nodesOf(f)
    .map((n) => `${n.namespace}/${n.name}`)
    .sort()
/** What a reader is told: the words, the nodes, and nothing about which node the run started from. */
const answer = (f: Finding) => ({ summary: f.summary, cause: f.cause, action: f.action, subject: f.subject, nodes: holdersOf(f) })

describe('double-sign-risk', () => {
  it('a standby at height 0 with the key: one finding naming both, first in the report; the standby stops, the validator at the tip keeps signing', () => {
    const snapshot = twoHolders({ height: 0, power: 0 })
    // An error on a node whose name sorts first does not come before it.
    snapshot.logs.find((l) => l.pod === 'fullnode-0' && l.container === 'app' && !l.previous)!.text += `${at} CONSENSUS FAILURE!!! err=boom\n`
    const report = run(snapshot)
    expect(report.findings[0].ruleId).toBe('double-sign-risk')
    const found = report.findings.filter((f) => f.ruleId === 'double-sign-risk')
    expect(found).toHaveLength(1)
    const [risk] = found
    expect(holdersOf(risk)).toEqual([PRIMARY, STANDBY])
    expect(risk.subject).toEqual({ kind: 'ChainNode', namespace: NS, name: 'hub-fullnodes-1' })
    expect(risk.summary).toBe(`2 running nodes present validator key ${val1} on kvstore-record-1: ${PRIMARY}, ${STANDBY}`)
    expect(risk.action).toMatch(
      new RegExp(
        `^Stop ${STANDBY}; ${PRIMARY} keeps signing \\(${PRIMARY} holds the key as its ChainNode's .status.pubKey and is at height 13 \\(the key last signed height 12\\); ${STANDBY} lags \\(height 0\\), so cannot have cast those signatures\\)\\. kubectl -n ${NS} delete pod hub-fullnodes-1:`,
      ),
    )
    expect(risk.action).not.toMatch(/stop sc-healthy\/hub-fullnodes-0/i)
    expect(risk.evidence.map((e) => e.text)).toContain(`${val1} last signed height 12, voting power 10`)
  })

  it("dates the incident by the later holder's chain container start, not by when the nodes were read; undated when a start is unknown", () => {
    const snapshot = twoHolders({ height: 0, power: 0 })
    const startPod = (name: string, startedAt: string | undefined) => {
      const pod = editable(snapshot).find((o) => o.kind === 'Pod' && o.metadata.name === name)!
      for (const status of (pod.status as { containerStatuses: { state?: object }[] }).containerStatuses)
        status.state = startedAt ? { running: { startedAt } } : { waiting: { reason: 'ContainerCreating' } }
    }
    startPod('hub-fullnodes-0', '2026-11-20T10:00:00Z')
    startPod('hub-fullnodes-1', '2026-11-21T12:30:00Z')
    const [risk] = findingsOf(snapshot, 'double-sign-risk')
    expect(onsetOf(risk)).toBe('2026-11-21T12:30:00.000Z')
    // The probe readings are dated too (when the nodes were read): they say the key is held now, not since when.
    expect(risk.evidence.some((e) => e.kind === 'probe' && e.at !== undefined)).toBe(true)
    startPod('hub-fullnodes-0', undefined)
    const [undated] = findingsOf(snapshot, 'double-sign-risk')
    expect(onsetOf(undated)).toBeUndefined()
  })

  it('the same answer from either holder, and from both: the other holder is read as context', () => {
    const snapshot = twoHolders({ height: 0, power: 0 })
    const both = findingsOf(snapshot, 'double-sign-risk').map(answer)
    for (const name of ['hub-fullnodes-0', 'hub-fullnodes-1']) {
      const alone = narrowToScope(snapshot, { kind: 'node', namespace: NS, name })
      expect(alone.objects.filter((o) => o.kind === 'ChainNode').map((o) => o.metadata.name)).toEqual([name])
      const report = run(alone)
      expect(report.nodes.map((n) => n.node.name)).toEqual([name])
      expect(report.findings.filter((f) => f.ruleId === 'double-sign-risk').map(answer)).toEqual(both)
    }
  })

  it('the key search of a live run of one holder (the other as context) gives that answer, and a bundle keeps it', async () => {
    const snapshot = twoHolders({ height: 0, power: 0 })
    const both = findingsOf(snapshot, 'double-sign-risk').map(answer)
    // As collect writes it for `doctor hub-fullnodes-0`: the standby's ChainNode and /status are context, not nodes.
    const standby = snapshot.objects.find((o) => o.kind === 'ChainNode' && o.metadata.name === 'hub-fullnodes-1')!
    const record = snapshot.probes.find((p) => p.pod === 'hub-fullnodes-1')!
    const live: Snapshot = {
      ...snapshot,
      scope: { kind: 'node', namespace: NS, name: 'hub-fullnodes-0' },
      objects: snapshot.objects.filter((o) => o !== standby),
      probes: snapshot.probes.filter((p) => p !== record),
      keySearch: { where: 'cluster', notes: [], nodes: [standby], probes: [record] },
    }
    expect(findingsOf(live, 'double-sign-risk').map(answer)).toEqual(both)
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'double-sign-')), 'b')
    await writeBundle(dir, live, false)
    const read = await readBundle(dir)
    expect(read.keySearch?.nodes.map((n) => n.metadata.name)).toEqual(['hub-fullnodes-1'])
    expect(findingsOf(read, 'double-sign-risk').map(answer)).toEqual(both)
    // A stranger's key-search.json of another shape is refused with the file named, not read as holders.
    writeFileSync(path.join(dir, 'key-search.json'), JSON.stringify({ where: 'everywhere', notes: [], nodes: [], probes: [] }))
    await expect(readBundle(dir)).rejects.toThrow(/key-search\.json is not what a bundle holds/)
  })

  it('namespace-only: the finding says where the other holders were looked for, and why no further', () => {
    const snapshot = narrowToScope(twoHolders({ height: 0, power: 0 }), { kind: 'node', namespace: NS, name: 'hub-fullnodes-0' })
    snapshot.keySearch = { ...snapshot.keySearch!, where: 'namespaces', namespaces: [NS], notes: ['not allowed to list ChainNodes cluster-wide (403)'] }
    const [risk] = findingsOf(snapshot, 'double-sign-risk')
    expect(risk.cause).toMatch(/\. Other holders were looked for in sc-healthy only \(not allowed to list ChainNodes cluster-wide \(403\)\)$/)
    // With no other holder found, the node's measurement says it too: "no finding" was not measured cluster-wide.
    const alone = {
      ...snapshot,
      probes: snapshot.probes.filter((p) => p.pod !== 'hub-fullnodes-1'),
      keySearch: { ...snapshot.keySearch!, nodes: [], probes: [] },
    }
    const report = run(alone)
    expect(report.findings.filter((f) => f.ruleId === 'double-sign-risk')).toEqual([])
    expect(report.nodes[0].chain?.keySearch).toBe('looked for in sc-healthy only (not allowed to list ChainNodes cluster-wide (403))')
  })

  it('the diagnosis: one incident for the key, first, naming every holder, whichever holder the run started from', () => {
    const snapshot = twoHolders({ height: 0, power: 0 })
    const incidentOf = (s: Snapshot) => {
      const [cluster] = diagnose([s], RULES as unknown as readonly Rule[]).clusters
      const incidents = cluster.diagnosis.incidents.filter((i) => i.cause.ruleId === 'double-sign-risk')
      expect(incidents).toHaveLength(1)
      expect(cluster.diagnosis.incidents[0]).toBe(incidents[0])
      const [incident] = incidents
      return {
        nodes: incident.nodes.map((n) => `${n.namespace}/${n.name}`).sort(),
        actions: incident.cause.findings.map((f) => f.action),
        severity: incident.severity,
      }
    }
    const whole = incidentOf(snapshot)
    expect(whole.nodes).toEqual([PRIMARY, STANDBY])
    expect(whole.actions).toHaveLength(1)
    expect(whole.actions[0]).toMatch(new RegExp(`^Stop ${STANDBY}; ${PRIMARY} keeps signing`))
    for (const name of ['hub-fullnodes-0', 'hub-fullnodes-1']) expect(incidentOf(narrowToScope(snapshot, { kind: 'node', namespace: NS, name }))).toEqual(whole)
  })

  it('a holder not managed as that validator stops, though it is at the tip too', () => {
    const risk = findingsOf(twoHolders({ as: 'val-0' }), 'double-sign-risk')
    expect(risk).toHaveLength(1)
    expect(risk[0].action).toMatch(new RegExp(`^Stop ${STANDBY}; ${PRIMARY} keeps signing \\(.*; ${STANDBY} is not managed as that validator\\)`))
  })

  it('both managed and at the tip: the one created later stops, whichever it is', () => {
    const later = findingsOf(twoHolders({ created: '2026-11-22T13:15:00Z' }), 'double-sign-risk')
    expect(later[0].action).toMatch(
      new RegExp(
        `^Stop ${STANDBY}; ${PRIMARY} keeps signing \\(.*${PRIMARY} was created first \\(2026-11-22T13:09:26Z\\), ${STANDBY} later \\(2026-11-22T13:15:00Z\\)`,
      ),
    )
    const earlier = findingsOf(twoHolders({ primaryCreated: '2026-11-22T13:15:00Z' }), 'double-sign-risk')
    expect(earlier[0].action).toMatch(new RegExp(`^Stop ${PRIMARY}; ${STANDBY} keeps signing`))
  })

  it('cannot tell: both managed, at the tip and created together; one finding, both candidates, no node told to stop the other', () => {
    const found = findingsOf(twoHolders(), 'double-sign-risk')
    expect(found).toHaveLength(1)
    expect(holdersOf(found[0])).toEqual([PRIMARY, STANDBY])
    expect(found[0].action).toMatch(
      new RegExp(
        `^Cannot tell which of ${PRIMARY}, ${STANDBY} should keep signing: ${PRIMARY}, ${STANDBY} all hold the key as their ChainNodes' .status.pubKey; ${PRIMARY}, ${STANDBY} are all at the tip \\(hub-fullnodes-0 at 13, hub-fullnodes-1 at 13; the key last signed height 12\\) and were created at the same time\\.`,
      ),
    )
    expect(found[0].action).not.toMatch(/^Stop /)
  })

  it('cannot tell: the ChainNode with the key lags while a node not managed as it is at the tip', () => {
    const snapshot = twoHolders({ as: 'val-0' })
    snapshot.probes.find((p) => p.pod === 'hub-fullnodes-0')!.chain!.status!.height = 0
    const [risk] = findingsOf(snapshot, 'double-sign-risk')
    expect(risk.action).toMatch(
      new RegExp(
        `^Cannot tell which of .*: ${PRIMARY} holds the key as its ChainNode's .status.pubKey but lags \\(height 0; the key last signed height 12\\), while ${STANDBY}, not managed as that validator, is at the tip`,
      ),
    )
  })

  it('decides from the evidence alone: every holder is named, and one keeps signing or none', () => {
    const holder = (node: string, height: number, more: Partial<KeyHolder> = {}): KeyHolder => ({
      node: `ns/${node}`,
      target: `pod/${node}:26657`,
      height,
      at,
      created: '2026-11-22T13:00:00Z',
      managed: true,
      known: true,
      ...more,
    })
    // The signatures were cast elsewhere (a remote signer), both holders lag: the one created first is the validator.
    expect(decide([holder('a', 5), holder('b', 4, { created: '2026-11-22T14:00:00Z' })], 100)).toMatchObject({ keep: 'ns/a', stop: ['ns/b'] })
    // The only ChainNode with the key lags and no other is at the tip: it is still the validator; the copy stops.
    expect(decide([holder('a', 5), holder('b', 4, { managed: false })], 100)).toMatchObject({ keep: 'ns/a', stop: ['ns/b'] })
    // Three holders, two copies: one keeps, both copies stop.
    expect(decide([holder('a', 100), holder('b', 0), holder('c', 100, { managed: false })], 99)).toMatchObject({ keep: 'ns/a', stop: ['ns/b', 'ns/c'] })
    // No ChainNode has the key and one was not read: cannot tell, and says which was not read.
    expect(decide([holder('a', 100, { managed: false }), holder('b', 100, { managed: false, known: false, created: undefined })], 99)).toEqual({
      stop: [],
      why: "the ChainNode of ns/b was not read, and no holder's ChainNode has the key as its .status.pubKey",
    })
    // A creation time unknown: cannot tell, and says so.
    expect(decide([holder('a', 100), holder('b', 100, { created: undefined })], 99).why).toMatch(/the creation time of ns\/b is unknown$/)
  })

  it('another chain, or a key without voting power, is no risk', () => {
    const snapshot = clone()
    asValidator(snapshot, 'hub-fullnodes-0', 'val-1')
    asValidator(snapshot, 'hub-fullnodes-1', 'val-1', { network: 'other-1' })
    expect(findingsOf(snapshot, 'double-sign-risk')).toEqual([])
    const zero = clone()
    asValidator(zero, 'hub-fullnodes-0', 'val-1', { power: 0 }).chain!.signing!.votingPower = 0
    asValidator(zero, 'hub-fullnodes-1', 'val-1', { power: 0 }).chain!.signing!.votingPower = 0
    expect(findingsOf(zero, 'double-sign-risk')).toEqual([])
  })
})
