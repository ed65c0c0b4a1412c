import { describe, expect, it } from 'vitest'
import { runRules } from '../../../../src/engine/run-rules.js'
import type { Rule } from '../../../../src/engine/define-rule.js'
import { RULES } from '../../../../src/rules/index.js'
import { SnapshotIndex } from '../../../../src/snapshot/index.js'
import { containerRole, mainContainerName, type LogRole } from '../../../../src/snapshot/node-layout.js'
import type { LogRecord } from '../../../../src/snapshot/types.js'
import { exampleBundleNames } from '../../../helpers/fixtures.js'
import { loadBundle } from '../../../helpers/bundles.js'

/** What a recorded log is to the rules: the operator's manager, or a role in its node's Pod. */
function roleOf(index: SnapshotIndex, log: LogRecord): LogRole {
  if (log.container === 'manager') return 'operator'
  const node = index.get('ChainNode', log.namespace, log.pod)
  return containerRole(log.container, mainContainerName(node, index.get('Pod', log.namespace, log.pod)))
}

// doctor reads only the logs its rules declare: a rule that read another log would lose its evidence live.
describe('the logs a rule declares are all it reads', () => {
  const names = exampleBundleNames()
  it.each(names)('%s: every rule finds the same with only its declared logs', async (name) => {
    const snapshot = await loadBundle(name)
    const index = new SnapshotIndex(snapshot)
    let compared = 0
    for (const rule of RULES as unknown as Rule[]) {
      const declared = new Set(rule.logs ?? [])
      const narrowed = { ...snapshot, logs: snapshot.logs.filter((log) => declared.has(roleOf(index, log))) }
      const full = runRules(index, [rule]).findings
      expect(runRules(new SnapshotIndex(narrowed), [rule]).findings, rule.id).toEqual(full)
      compared += full.length
    }
    // Each recorded symptom fires at least one rule, so the comparison covers real evidence.
    if (!name.startsWith('healthy')) expect(compared).toBeGreaterThan(0)
  })

  it('names only roles a container can have', () => {
    for (const rule of RULES) for (const role of rule.logs ?? []) expect(['main', 'node-utils', 'gate', 'legacy-signer', 'operator']).toContain(role)
  })
})
