import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { bundleFiles, smallSnapshot, writeBundleFolder } from '../helpers/hostile.js'
import { editable } from '../helpers/bundles.js'

/*
 * Issue 31, item 4: the shapes that crashed with a stack trace end in a report or in one line (exit 2), and
 * inherited names (toString, constructor, __proto__) never change a result. Each through the real CLI on a
 * folder bundle, one test per shape.
 */
const work = mkdtempSync(path.join(tmpdir(), 'input-shapes-'))
let count = 0
function bundle(edit: (files: Record<string, string>) => void): string {
  const files = bundleFiles()
  edit(files)
  return writeBundleFolder(path.join(work, `b${count++}`), files)
}
const run = (args: string[]) => runCli(args, { env: { NO_COLOR: '1', KUBECONFIG: '' } })

/** A report (exit 0 or 1, or 3 where something was left out) or one usage line (exit 2), never a stack trace. */
function noCrash(result: { code: number; stderr: string }): void {
  expect([0, 1, 2, 3], result.stderr).toContain(result.code)
  expect(result.stderr).not.toMatch(/^\s+at |RangeError|TypeError|Maximum call stack|Regular expression too large/m)
  if (result.code === 2) expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1)
}
function oneLine(result: { code: number; stderr: string }, expected: RegExp): void {
  expect(result.code, result.stderr).toBe(2)
  expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1)
  expect(result.stderr).toMatch(expected)
}
const manifest = (files: Record<string, string>, edit: (m: Record<string, unknown>) => void) => {
  const m = JSON.parse(files['manifest.json']) as Record<string, unknown>
  edit(m)
  files['manifest.json'] = JSON.stringify(m)
}

describe('shapes that crashed become reports or one-line input errors', () => {
  it('100,000-deep JSON nesting in a bundle file', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const dir = bundle((f) => {
      f['resources/ns/Event.json'] = `[{"kind":"Event","metadata":{"name":"e","namespace":"ns"},"message":"m","deep":${deep}}]`
    })
    for (const argv of [['doctor'], ['timeline', 'node-0'], ['events'], ['describe', 'node-0']]) noCrash(await run([...argv, '--bundle', dir]))
  })

  it('an object its kind would misdescribe (a Pod phase that is a number) is left out, and the report says which and why', async () => {
    const dir = bundle((f) => {
      const pods = JSON.parse(f['resources/ns/Pod.json']) as { status?: Record<string, unknown> }[]
      pods[0].status = { ...pods[0].status, phase: 5 }
      f['resources/ns/Pod.json'] = JSON.stringify(pods)
    })
    const result = await run(['doctor', '--bundle', dir, '-o', 'json'])
    noCrash(result)
    const report = JSON.parse(result.stdout) as { clusters: { collectionErrors: { what: string; message: string }[]; nodes: { name: string }[] }[] }
    expect(report.clusters[0].nodes.map((n) => n.name)).toContain('node-0')
    expect(report.clusters[0].collectionErrors).toContainEqual(
      expect.objectContaining({ what: 'read Pod node-0 from resources/ns/Pod.json', message: 'left out: status.phase should be a string, not number 5' }),
    )
  })

  it('an unparseable collectedAt: one line naming the field', async () => {
    for (const bad of ['not a time', '2026-13-45T99:00:00Z', '']) {
      const dir = bundle((f) => manifest(f, (m) => (m.collectedAt = bad)))
      for (const argv of [['doctor'], ['timeline', 'node-0', '-o', 'markdown']]) {
        oneLine(await run([...argv, '--bundle', dir]), /manifest\.json is not what a bundle holds: collectedAt should be a time \(RFC 3339\)/)
      }
    }
  })

  it('an unparseable history time: one line naming the entry', async () => {
    const dir = bundle((f) => (f['history.json'] = JSON.stringify([{ node: 'ns/node-0', at: 'yesterday' }])))
    oneLine(await run(['timeline', 'node-0', '--bundle', dir]), /history\.json is not what a bundle holds: \[0\]\.at should be a time/)
  })

  it('a 1 MB node name: a report, no "Regular expression too large"', async () => {
    const name = 'n'.repeat(1 << 20)
    const dir = bundle((f) => {
      const [node, pod, event] = editable(smallSnapshot())
      node.metadata.name = name
      pod.metadata.ownerReferences![0].name = name
      event.involvedObject = { ...event.involvedObject, name }
      f['resources/ns/ChainNode.json'] = JSON.stringify([node])
      f['resources/ns/Pod.json'] = JSON.stringify([pod])
      f['resources/ns/Event.json'] = JSON.stringify([event])
    })
    for (const argv of [['doctor'], ['status'], ['events'], ['timeline', name.slice(0, 300)]]) noCrash(await run([...argv, '--bundle', dir]))
  })

  it('a ConfigMap whose data is a string (left out, as its kind would misdescribe it): config-hash and config-hash diff answer without a stack trace', async () => {
    const dir = bundle((f) => {
      f['resources/ns/ConfigMap.json'] = JSON.stringify([
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'node-0-config', namespace: 'ns' }, data: 'a string' },
      ])
    })
    noCrash(await run(['config-hash', 'node-0', '--bundle', dir]))
    noCrash(await run(['config-hash', 'diff', dir, dir, '--node', 'node-0']))
    noCrash(await run(['describe', 'node-0', '--bundle', dir]))
  })
})

describe('inherited names never change a result', () => {
  it('labels, annotations and status fields named toString, constructor and __proto__ read as the strings they are', async () => {
    const dir = bundle((f) => {
      const [node] = editable(smallSnapshot())
      node.metadata.labels = JSON.parse('{"toString":"a","constructor":"b","__proto__":"c","hasOwnProperty":"d"}') as Record<string, string>
      node.metadata.annotations = JSON.parse('{"toString":"a","constructor":"b","__proto__":"c"}') as Record<string, string>
      f['resources/ns/ChainNode.json'] = JSON.stringify([node]).replace('"status":{', '"status":{"toString":"x","constructor":"y",')
    })
    for (const argv of [['doctor'], ['status'], ['status', '-o', 'json'], ['describe', 'node-0'], ['events'], ['timeline', 'node-0']])
      noCrash(await run([...argv, '--bundle', dir]))
    const described = await run(['describe', 'node-0', '--bundle', dir])
    expect(described.stdout).toMatch(/constructor=b/)
  })

  it('status -l constructor lists only nodes that carry that label', async () => {
    const plain = bundle(() => {})
    const without = await run(['status', '-l', 'constructor', '--bundle', plain, '-o', 'json'])
    expect(without.code, without.stderr).toBe(0)
    expect(JSON.stringify(JSON.parse(without.stdout))).not.toContain('node-0')
    // Not a label key (one starts with a letter or digit), as kubectl says.
    oneLine(await run(['status', '-l', '__proto__', '--bundle', plain]), /--selector "__proto__" is not a label selector/)
    for (const selector of ['toString', 'hasOwnProperty=x', 'constructor in (a)', 'valueOf,toString']) {
      const result = await run(['status', '-l', selector, '--bundle', plain, '-o', 'json'])
      expect(result.code, result.stderr).toBe(0)
      expect(JSON.stringify(JSON.parse(result.stdout)), selector).not.toContain('node-0')
    }
    const withLabel = bundle((f) => {
      const [node] = editable(smallSnapshot())
      node.metadata.labels = { constructor: 'yes' }
      f['resources/ns/ChainNode.json'] = JSON.stringify([node])
    })
    expect((await run(['status', '-l', 'constructor', '--bundle', withLabel, '-o', 'json'])).stdout).toContain('node-0')
  })

  it('a log line with "level":"__proto__" (or constructor, toString) gives a timeline entry with a known level', async () => {
    const dir = bundle((f) => {
      f['logs/ns/node-0/node-utils.log'] = ['__proto__', 'constructor', 'toString']
        .map((level, i) => JSON.stringify({ level, ts: `2026-11-22T09:59:3${i}Z`, msg: `odd level ${level}` }))
        .join('\n')
    })
    const result = await run(['timeline', 'node-0', '--bundle', dir, '-o', 'json'])
    expect(result.code, result.stderr).toBe(0)
    const levels = [...result.stdout.matchAll(/"level": ("[^"]*"|\{[^}]*\})/g)].map((m) => m[1])
    for (const level of levels) expect(['"error"', '"warning"', '"info"', '"normal"']).toContain(level)
  })
})
