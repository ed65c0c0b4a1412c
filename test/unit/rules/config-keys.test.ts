import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { changedConfigKeys, configKeyDigests, MAX_CONFIG_KEYS } from '../../../src/analysis/config-diff.js'
import { configState } from '../../../src/analysis/config-state.js'
import { recordHistory } from '../../../src/app/history-store.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import configChangeRestart from '../../../src/rules/config-change-restart.js'
import { annotation } from '../../../src/snapshot/operator.js'
import { type Editable, loadBundle } from '../../helpers/bundles.js'

// Issue 32 item 9: a config restart names the keys that changed, read off the local history's fingerprints.
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const historyFile = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chainnode-history-'))
  dirs.push(dir)
  return path.join(dir, 'history.json')
}

/** cfg-1 of the recorded bundle: its ConfigMap is at a newer config-hash than its Pod (the restart is deferred). */
async function deferredNode() {
  const snapshot = await loadBundle('config-change-restart')
  const index = new SnapshotIndex(snapshot)
  const node = index.chainNodes().find((n) => n.metadata.name === 'cfg-1')!
  return { snapshot, node, configMap: index.configMapOf(node)!, pod: index.podOf(node)! }
}

const withPeers = (config: Editable, peers: string): Editable => ({
  ...config,
  data: { ...config.data, 'config.toml': config.data!['config.toml'].replace(/^persistent_peers = .*$/m, `persistent_peers = "${peers}"`) },
})

describe('naming the configuration keys a change touched', () => {
  it('fingerprints each key, so two configurations differ by name and not by layout', () => {
    const before = configKeyDigests({ 'config.toml': '[p2p]\nseeds = "a@1.2.3.4:26656"\n# a comment\n', 'app.toml': 'minimum-gas-prices = "0stake"\n' })!
    const after = configKeyDigests({
      'config.toml': '[p2p]\n\nseeds = "b@1.2.3.4:26656"\n',
      'app.toml': 'minimum-gas-prices = "0stake"\n',
      'new.json': '{"x":1}',
    })!
    expect(changedConfigKeys(before, after)).toEqual(['config.toml:p2p.seeds', 'new.json:x'])
    // A stranger's key named __proto__ stays a key.
    expect(Object.keys(configKeyDigests({ 'a.json': '{"__proto__":{"x":1}}' })!)).toEqual(['a.json:__proto__.x'])
    // No fingerprints for a ConfigMap beyond the bound, rather than a history file that grows without one.
    const huge = Array.from({ length: MAX_CONFIG_KEYS + 1 }, (_, i) => `k${i} = ${i}`).join('\n')
    expect(configKeyDigests({ 'config.toml': huge })).toBeUndefined()
  })

  it('a deferred restart names the keys changed since the configuration the Pod runs, through two runs of the local history', async () => {
    const { snapshot, node, configMap, pod } = await deferredNode()
    const file = historyFile()
    // Run 1: the ConfigMap still at the Pod's hash, with other peers.
    const earlier: Snapshot = {
      ...snapshot,
      collectedAt: '2026-11-22T13:15:00Z',
      objects: snapshot.objects.map((o) =>
        o === configMap
          ? withPeers(
              {
                ...o,
                metadata: {
                  ...o.metadata,
                  annotations: { ...o.metadata.annotations, [annotation('config-hash')]: pod.metadata.annotations![annotation('config-hash')] },
                },
              },
              'old@10.0.0.1:26656',
            )
          : o,
      ),
    }
    await recordHistory(earlier, file)
    // Run 2: the snapshot as recorded, which now carries run 1's observation.
    const now = await recordHistory(snapshot, file)
    const index = new SnapshotIndex(now)
    const state = configState(index, node, Date.parse(snapshot.collectedAt))
    expect(state.verdict).toBe('deferred')
    expect(state.changedKeys).toEqual(['config.toml:p2p.persistent_peers'])
    const [hit] = configChangeRestart.check({ index, node, pod: index.podOf(node), now: Date.parse(snapshot.collectedAt) })
    expect(configChangeRestart.summary(hit.data)).toBe(
      'configuration changed (changed: config.toml:p2p.persistent_peers): the restart is deferred by the disruption check',
    )
    // Only the last observations keep fingerprints; values are never written.
    expect(readFileSync(file, 'utf8')).not.toContain('old@10.0.0.1')
  })

  it('says nothing about keys when the history never saw the earlier configuration', async () => {
    const { snapshot, node } = await deferredNode()
    const index = new SnapshotIndex(snapshot)
    const [hit] = configChangeRestart.check({ index, node, pod: index.podOf(node), now: Date.parse(snapshot.collectedAt) })
    expect(configChangeRestart.summary(hit.data)).toBe('configuration changed: the restart is deferred by the disruption check')
  })
})
