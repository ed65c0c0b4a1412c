import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/cli.js'
import { labelColumns, labelsCell, sortByField, valueAt } from '../../../src/render/status-listing.js'

// Issue 32 item 8: kubectl's listing habits on status, each as kubectl behaves (kubectl get's documented output).
const bundle = 'examples/bundles/healthy.tgz'
const env = { KUBECTL_CHAINNODE_COLUMNS: '' }

describe('status speaks kubectl get', () => {
  it('-o name prints resource.group/name, one a line, as kubectl get chainnodes -o name', { timeout: 60_000 }, async () => {
    const { stdout, stderr, code } = await runCli(['status', '--bundle', bundle, '-o', 'name'], { env })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout.trim().split('\n')).toEqual([
      'chainnode.cosmopilot.voluzi.com/fullnode-0',
      'chainnode.cosmopilot.voluzi.com/hub-fullnodes-0',
      'chainnode.cosmopilot.voluzi.com/hub-fullnodes-1',
    ])
  })

  it('--sort-by takes a field path with or without braces and sorts numbers by value', { timeout: 60_000 }, async () => {
    const first = (out: string) => out.split('\n')[1].split(/\s+/)[0]
    const byHeight = await runCli(['status', '--bundle', bundle, '--sort-by', '{.status.latestHeight}'], { env })
    expect(first(byHeight.stdout)).toBe('hub-fullnodes-0')
    const byName = await runCli(['status', '--bundle', bundle, '--sort-by', '.metadata.name', '-o', 'name'], { env })
    expect(byName.stdout.trim().split('\n')[0]).toBe('chainnode.cosmopilot.voluzi.com/fullnode-0')
    const bad = await runCli(['status', '--bundle', bundle, '--sort-by', 'status['], { env })
    expect(bad.code).toBe(2)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
    const items = [{ v: 10 }, { v: 9 }, { v: undefined }, { v: 100 }]
    expect(sortByField(items, (i) => ({ kind: 'ChainNode', metadata: { name: 'x' }, status: { h: i.v } }) as never, '.status.h').map((i) => i.v)).toEqual([
      undefined,
      9,
      10,
      100,
    ])
    expect(valueAt(JSON.parse('{"a":{"__proto__":{"b":1}}}'), ['a', '__proto__', 'b'])).toBe(1)
    expect(valueAt({}, ['constructor'])).toBeUndefined()
  })

  it('--show-labels adds LABELS last and -L a column per key headed by its last segment', { timeout: 60_000 }, async () => {
    const { stdout } = await runCli(['status', '--bundle', bundle, '--show-labels', '-L', 'nodeset,app.kubernetes.io/part-of'], { env })
    const [header, ...rows] = stdout.trim().split('\n')
    expect(header).toMatch(/AGE\s+NODESET\s+PART-OF\s+LABELS$/)
    expect(rows.find((r) => r.startsWith('fullnode-0'))).toMatch(/\s{2,}cosmoshub\s+app\.kubernetes\.io\/part-of=cosmoshub$/)
    expect(rows.find((r) => r.startsWith('hub-fullnodes-0'))).toMatch(/\s+hub\s+group=fullnodes,nodeset=hub,validator=false$/)
    expect(labelsCell({})).toBe('<none>')
    expect(labelColumns(['a/b,c', 'd'])).toEqual([
      { key: 'a/b', header: 'B' },
      { key: 'c', header: 'C' },
      { key: 'd', header: 'D' },
    ])
  })
})
