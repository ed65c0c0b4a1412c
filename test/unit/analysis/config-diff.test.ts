import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { changedConfigKeys, configKeyDigests, diffConfigs, MAX_CONFIG_KEYS } from '../../../src/analysis/config-diff.js'
import { configState } from '../../../src/analysis/config-state.js'
import { recordHistory } from '../../../src/app/cluster-memory.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import configChangeRestart from '../../../src/rules/config-change-restart.js'
import { annotation } from '../../../src/snapshot/operator.js'
import { type Editable, loadBundle } from '../../helpers/bundles.js'
import { renderChanges, renderConfigDiff } from '../../../src/render/config-hash.js'

const BEFORE = `# This is a TOML document rendered by the operator
proxy_app = "tcp://127.0.0.1:26658"
moniker = "fullnode-0"

[rpc]
laddr = "tcp://0.0.0.0:26657"
cors_allowed_origins = ["*"]   # every origin

[p2p]
seeds = ""
persistent_peers = "a@10.0.0.1:26656"
max_num_inbound_peers = 40

[statesync]
enable = false
rpc_servers = ["http://one:26657", "http://two:26657"]

[[instrumentation.collectors]]
name = "prometheus"
port = 26660
`

describe('key-level configuration diff', () => {
  it('ignores comments, blank lines, key order and number spelling', () => {
    const reordered = `moniker = "fullnode-0"\nproxy_app = "tcp://127.0.0.1:26658"\n[p2p]\nmax_num_inbound_peers = 4_0\npersistent_peers = "a@10.0.0.1:26656"\nseeds = ""\n[rpc]\ncors_allowed_origins = [ "*" ]\nladdr = "tcp://0.0.0.0:26657"\n[statesync]\nrpc_servers = ["http://one:26657", "http://two:26657"]\nenable = false\n[[instrumentation.collectors]]\nport = 26660\nname = "prometheus"\n`
    expect(diffConfigs({ 'config.toml': BEFORE }, { 'config.toml': reordered })).toEqual([])
  })

  it('reports nested tables, arrays and arrays of tables by key path', () => {
    const after = BEFORE.replace('seeds = ""', 'seeds = "s@10.0.0.9:26656"')
      .replace('enable = false', 'enable = true\ntrust_height = 1200')
      .replace('"http://two:26657"]', '"http://three:26657"]')
      .replace('port = 26660', 'port = 26661')
      .replace('max_num_inbound_peers = 40\n', '')
    const changes = diffConfigs({ 'config.toml': BEFORE, 'app.toml': 'pruning = "default"\n' }, { 'config.toml': after, 'client.toml': 'chain-id = "x"\n' })
    expect(changes.map((c) => `${c.kind} ${c.file}:${c.path}`)).toEqual([
      'removed app.toml:(whole file)',
      'added client.toml:(whole file)',
      'changed config.toml:instrumentation.collectors',
      'removed config.toml:p2p.max_num_inbound_peers',
      'changed config.toml:p2p.seeds',
      'changed config.toml:statesync.enable',
      'changed config.toml:statesync.rpc_servers',
      'added config.toml:statesync.trust_height',
    ])
    expect(renderChanges(changes)).toContain('~ config.toml: p2p.seeds: "" -> "s@10.0.0.9:26656"')
  })

  it('compares JSON files by key and keeps going on a file that does not parse', () => {
    const changes = diffConfigs(
      { 'upgrades.json': '{"upgrades":[{"height":10}]}', 'broken.toml': 'a = 1' },
      { 'upgrades.json': '{"upgrades":[{"height":10},{"height":20}]}', 'broken.toml': '[[[' },
    )
    expect(changes.map((c) => c.path)).toEqual(['<unparsable>', 'a', 'upgrades'])
  })

  it('prints what a bundle says without letting it drive the terminal', () => {
    const text = renderConfigDiff({
      node: 'n\u001b[2J',
      configHash: { before: '1\u001b]0;title\u0007', after: undefined },
      restartFollowed: true,
      pod: { before: 'uid-a\u009b', after: 'uid-b' },
      changes: [],
    })
    for (const control of ['\u001b', '\u0007', '\u009b']) expect(text).not.toContain(control)
    expect(text).toBe(
      'ChainNode n^[[2J: config-hash 1^[]0;title^G -> <none>\n  (no configuration keys changed)\nA restart followed: Pod uid-a\\u009b -> uid-b.',
    )
  })
})

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

  it("fingerprints a ConfigMap's data once however many readers ask (the rules, the timeline, the history)", () => {
    const data = { 'config.toml': '[p2p]\nseeds = "a@1.2.3.4:26656"\n' }
    const first = configKeyDigests(data)
    expect(configKeyDigests(data)).toBe(first)
    const huge = { 'config.toml': Array.from({ length: MAX_CONFIG_KEYS + 1 }, (_, i) => `k${i} = ${i}`).join('\n') }
    expect([configKeyDigests(huge), configKeyDigests(huge)]).toEqual([undefined, undefined])
    // Another object of the same text is its own ConfigMap: fingerprinted alike, not taken for the first.
    const copy = { ...data }
    expect(configKeyDigests(copy)).not.toBe(first)
    expect(configKeyDigests(copy)).toEqual(first)
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
