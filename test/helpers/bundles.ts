import { beforeAll, describe, expect, it } from 'vitest'
import type { Rule, RuleSettings } from '../../src/engine/define-rule.js'
import { runRules, type Report } from '../../src/engine/run-rules.js'
import { RULES } from '../../src/rules/index.js'
import { readBundle } from '../../src/snapshot/bundle.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import type { KubeObject, Snapshot } from '../../src/snapshot/types.js'
import { fixtureBundle } from './fixtures.js'

// A test file reads each example bundle once; every test gets its own deep copy, so what one test edits
// (a log line appended, a Pod made NotReady) never leaks into the next.
const read = new Map<string, Promise<Snapshot>>()

/** A fresh copy of the example bundle examples/bundles/<name>.tgz, read once per test file. */
export async function loadBundle(name: string): Promise<Snapshot> {
  if (!read.has(name)) read.set(name, readBundle(fixtureBundle(name)))
  return structuredClone(await read.get(name)!)
}

/**
 * Reads these example bundles before the file's tests run, and returns a synchronous loader for them:
 * `const load = useBundles('healthy')` then `load('healthy')` in a test gives a fresh copy.
 */
export function useBundles(...names: string[]): (name: string) => Snapshot {
  const loaded = new Map<string, Snapshot>()
  beforeAll(async () => {
    for (const name of names) loaded.set(name, await loadBundle(name))
  })
  return (name) => {
    const snapshot = loaded.get(name)
    if (!snapshot) throw new Error(`bundle ${name} is not among those this file loads (${names.join(', ')})`)
    return structuredClone(snapshot)
  }
}

/**
 * An object a test reads and edits as it likes (a status set, a container added): every field is open, and
 * it stands for the view of its kind. A test is the one place that writes what no bundle would check.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Editable = { apiVersion: string; kind: any; metadata: KubeObject['metadata'] } & Record<string, any>

/** The object of this kind and name in the snapshot (a test that names an absent one fails on its use). */
export const findObject = (snapshot: Snapshot, kind: string, name: string): Editable =>
  snapshot.objects.find((o) => o.kind === kind && o.metadata.name === name)!

/** The snapshot's objects, open for the test to edit. */
export const editable = (snapshot: Snapshot): Editable[] => snapshot.objects

/** The objects of a kind in the snapshot, open for the test to edit. */
export const objectsOf = (snapshot: Snapshot, kind: string): Editable[] => snapshot.objects.filter((o) => o.kind === kind)

/** The registered rule with this id. */
export const ruleById = (id: string): Rule => {
  const rule = RULES.find((r) => r.id === id)
  if (!rule) throw new Error(`no rule ${id}`)
  return rule as unknown as Rule
}

/** Every registered rule on the snapshot, at its collection time unless `now` says otherwise. */
export const runAllRules = (snapshot: Snapshot, settings: RuleSettings = {}, now = Date.parse(snapshot.collectedAt)): Report =>
  runRules(new SnapshotIndex(snapshot), RULES as readonly Rule<never>[] as readonly Rule[], now, settings)

/** The findings of one rule run alone on the snapshot (no other rule to suppress it). */
export const runRule = (snapshot: Snapshot, id: string, now = Date.parse(snapshot.collectedAt), settings: RuleSettings = {}) =>
  runRules(new SnapshotIndex(snapshot), [ruleById(id)], now, settings).findings

/** The findings of one rule among all registered rules (as doctor runs them: a root cause may suppress it). */
export const findingsOf = (snapshot: Snapshot, id: string, settings: RuleSettings = {}, now = Date.parse(snapshot.collectedAt)) =>
  runAllRules(snapshot, settings, now).findings.filter((f) => f.ruleId === id)

/**
 * A rule that accompanies a root cause, on a recorded bundle: it fires on (a variant of) the bundle, with
 * evidence, and stays quiet on a near miss of it. `fire` and `nearMiss` edit the test's own copy.
 */
export function companionCase(id: string, bundle: string, fire: (s: Snapshot) => void, nearMiss: (s: Snapshot) => void): void {
  describe('rules that companion a root cause, on recorded snapshots', () => {
    const load = useBundles(bundle)

    it(`${id} fires on (a variant of) the ${bundle} bundle`, () => {
      const snapshot = load(bundle)
      fire(snapshot)
      const found = runRule(snapshot, id)
      expect(found.length).toBeGreaterThan(0)
      expect(found[0].evidence.length).toBeGreaterThan(0)
    })

    it(`${id} does not fire on a near miss of the ${bundle} bundle`, () => {
      const snapshot = load(bundle)
      nearMiss(snapshot)
      expect(runRule(snapshot, id)).toEqual([])
    })
  })
}
