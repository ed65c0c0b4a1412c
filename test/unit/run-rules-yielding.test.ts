import { describe, expect, it } from 'vitest'
import { runRules, runRulesYielding } from '../../src/engine/run-rules.js'
import { RULES } from '../../src/rules/index.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import { loadBundle } from '../helpers/bundles.js'

describe('runRulesYielding (serve: scrapes are answered while a fleet is checked)', () => {
  it('finds what runRules finds, and lets other work run between nodes', async () => {
    const snapshot = await loadBundle('healthy')
    const nodes = snapshot.objects.filter((o) => o.kind === 'ChainNode').length
    expect(nodes).toBeGreaterThan(1)
    let ranMeanwhile = 0
    const other = setInterval(() => ranMeanwhile++, 0)
    // A slice of 0 ms hands the loop back after every node.
    const yielding = await runRulesYielding(new SnapshotIndex(snapshot), RULES, {}, 0)
    clearInterval(other)
    expect(ranMeanwhile).toBeGreaterThan(0)
    expect(yielding).toEqual(runRules(new SnapshotIndex(snapshot), RULES))
  })
})
