import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { recordHistory } from '../../../src/app/cluster-memory.js'
import { loadBundle } from '../../helpers/bundles.js'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function historyFileWith(entries: Record<string, { node: string; at: string }[]>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'chainnode-history-'))
  dirs.push(dir)
  const file = path.join(dir, 'history.json')
  writeFileSync(file, JSON.stringify(entries))
  return file
}

describe('the history file', () => {
  // Every throw-away cluster adds its nodes under a new server address, and every run reads the whole file.
  it("keeps the 10,000 nodes changed most recently, this run's nodes among them", async () => {
    const old = Object.fromEntries(
      Array.from({ length: 10_050 }, (_, i) => [
        `https://10.0.0.1:${i}|ns/node-${i}`,
        [{ node: `ns/node-${i}`, at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }],
      ]),
    )
    const file = historyFileWith(old)
    const snapshot = await loadBundle('healthy')
    await recordHistory(snapshot, file)
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
    expect(Object.keys(kept)).toHaveLength(10_000)
    expect(Object.keys(kept).filter((k) => k.startsWith(`${snapshot.source.server}|`)).length).toBeGreaterThan(0)
    // The oldest went first: node-0 .. node-49 (and as many more as this run added) are gone, the newest stays.
    expect(kept['https://10.0.0.1:0|ns/node-0']).toBeUndefined()
    expect(kept['https://10.0.0.1:10049|ns/node-10049']).toBeDefined()
  })

  it('adds the configuration fingerprints to an observation recorded without them, keeping when it was first seen', async () => {
    const file = historyFileWith({})
    const snapshot = await loadBundle('healthy')
    await recordHistory(snapshot, file)
    const first = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { at: string; configKeys?: Record<string, string> }[]>
    const withKeys = Object.entries(first).filter(([, list]) => list.at(-1)?.configKeys)
    expect(withKeys.length).toBeGreaterThan(0)
    // As a run before fingerprints were kept wrote it.
    for (const [, list] of withKeys) delete list.at(-1)!.configKeys
    writeFileSync(file, JSON.stringify(first))
    await recordHistory({ ...snapshot, collectedAt: new Date(Date.parse(snapshot.collectedAt) + 60_000).toISOString() }, file)
    const again = JSON.parse(readFileSync(file, 'utf8')) as typeof first
    for (const [node, list] of withKeys) {
      expect(again[node]).toHaveLength(list.length)
      expect(again[node].at(-1)!.at).toBe(list.at(-1)!.at)
      expect(Object.keys(again[node].at(-1)!.configKeys ?? {}).length).toBeGreaterThan(0)
    }
  })

  it('leaves a file under the bound as it was, but for this run', async () => {
    const file = historyFileWith({ 'https://10.0.0.1:1|ns/a': [{ node: 'ns/a', at: '2020-01-01T00:00:00Z' }] })
    await recordHistory(await loadBundle('healthy'), file)
    expect(JSON.parse(readFileSync(file, 'utf8'))['https://10.0.0.1:1|ns/a']).toEqual([{ node: 'ns/a', at: '2020-01-01T00:00:00Z' }])
  })
})
