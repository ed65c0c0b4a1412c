import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeProfile } from '../../../src/pprof/decode.js'
import { diffProfiles } from '../../../src/pprof/diff.js'
import { ProfileUsageError } from '../../../src/pprof/errors.js'
import { topTable } from '../../../src/pprof/top.js'
import { ROOT } from '../../helpers/cli.js'

const example = (name: string) => decodeProfile(readFileSync(join(ROOT, 'examples/profiles', name)))

describe('diffProfiles (-diff_base)', () => {
  it('a profile minus itself leaves nothing, and percentages are of the base', () => {
    const heap = example('leak-after.pb.gz')
    const same = topTable(diffProfiles(heap, heap), { nodeFraction: 0 })
    expect(same.rows).toEqual([])
    expect(same.total).toBe(topTable(heap).total)
  })

  it('what grew is positive, what shrank negative, and the total is the base total', () => {
    const before = example('leak-before.pb.gz')
    const after = example('leak-after.pb.gz')
    const grew = topTable(diffProfiles(after, before), { nodeFraction: 0 })
    const shrank = topTable(diffProfiles(before, after), { nodeFraction: 0 })
    expect(grew.total).toBe(topTable(before).total)
    expect(shrank.total).toBe(topTable(after).total)
    const store = (t: typeof grew) => t.rows.find((r) => r.name === 'main.(*leakyCache).store')!.flat
    expect(store(grew)).toBeGreaterThan(0)
    expect(store(shrank)).toBe(-store(grew))
  })

  it('refuses two profiles of different kinds in one line', () => {
    const cpu = example('cpu.pb.gz')
    const heap = example('heap.pb.gz')
    expect(() => diffProfiles(heap, cpu)).toThrow(ProfileUsageError)
    expect(() => diffProfiles(heap, cpu)).toThrow(/different kinds \(alloc_objects, alloc_space, inuse_objects, inuse_space vs base samples, cpu\)/)
  })
})
