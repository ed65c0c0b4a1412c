import { beforeAll, describe, expect, it } from 'vitest'
import { grepLogs } from '../../../src/analysis/grep-logs.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import { type Editable, loadBundle } from '../../helpers/bundles.js'

describe('grepLogs', () => {
  let index: SnapshotIndex
  let pod: Editable
  beforeAll(async () => {
    const snapshot = await loadBundle('not-syncing')
    index = new SnapshotIndex(snapshot)
    pod = snapshot.objects.find((o) => o.kind === 'Pod' && index.logsFor(o.metadata.namespace, o.metadata.name, 'node-utils', false)?.text)!
  })

  it('scans a log once per pattern text, even when each call passes a new literal', () => {
    const first = grepLogs(index, pod, 'node-utils', /./, 5, { anyLevel: true })
    const second = grepLogs(index, pod, 'node-utils', /./, 5, { anyLevel: true })
    expect(first.length).toBeGreaterThan(0)
    // The same evidence objects come back: the second call was answered from the cache.
    expect(second[0]).toBe(first[0])
  })

  it('finds every matching line with a global pattern (lastIndex does not skip lines)', () => {
    const plain = grepLogs(index, pod, 'node-utils', /[a-z]/i, 1000)
    const global = grepLogs(index, pod, 'node-utils', /[a-z]/gi, 1000)
    expect(global.length).toBe(plain.length)
  })
})
