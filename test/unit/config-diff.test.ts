import { describe, expect, it } from 'vitest'
import { diffConfigs } from '../../src/analysis/config-diff.js'
import { renderChanges, renderConfigDiff } from '../../src/render/config-hash.js'

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
