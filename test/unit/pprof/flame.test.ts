import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { defaultFlameName, flameFormatOf, writeFlame } from '../../../src/app/pprof-flame.js'
import { FLAME_FORMATS } from '../../../src/render/flame-formats.js'
import { decodeProfile } from '../../../src/pprof/decode.js'
import { flameGraph, type FlameGraph } from '../../../src/pprof/flame.js'
import { topTable } from '../../../src/pprof/top.js'
import { renderFlameHtml } from '../../../src/render/flame-html.js'
import { renderFlameSvg } from '../../../src/render/flame-svg.js'
import { escapeMarkup } from '../../../src/render/markup.js'
import { visible } from '../../../src/render/visible.js'
import { scaledLabel } from '../../../src/pprof/measurement.js'
import { cpuProfile as cpu, type ProfileSpec } from './build-profile.js'
import { fixture, FIXTURES } from './helpers.js'

/** The graph as [depth, name, value, self] rows in pre-order, values in samples. */
const rows = (g: FlameGraph) => Array.from(g.name, (n, i) => [g.depth[i], g.names[n], g.value[i]! / 1e7, g.self[i]! / 1e7])

/** Per function: flat is the self of its frames, cum the value of its frames with no frame of the same name above. */
function flatAndCum(g: FlameGraph): Map<string, { flat: number; cum: number }> {
  const out = new Map<string, { flat: number; cum: number }>()
  const path: number[] = []
  for (let i = 1; i < g.value.length; i++) {
    path.length = g.depth[i]! - 1
    const name = g.name[i]!
    const entry = out.get(g.names[name]!) ?? { flat: 0, cum: 0 }
    entry.flat += g.self[i]!
    if (!path.includes(name)) entry.cum += g.value[i]!
    out.set(g.names[name]!, entry)
    path.push(name)
  }
  return out
}

describe('flame graph tree', () => {
  it('merges stacks from the root, children widest first, with self at the leaf and inlined frames above their caller', () => {
    // Location 1: main.hash inlined into main.loop (innermost first).
    const p = cpu({ 1: ['main.hash', 'main.loop'], 2: ['main.main'], 3: ['main.io'], 4: ['runtime.main'] }, [
      [[1, 2, 4], 5],
      [[3, 2, 4], 2],
      [[2, 4], 1],
      [[3, 4], 4],
    ])
    expect(rows(flameGraph(p, { minFraction: 0 }))).toEqual([
      [0, 'root', 12, 0],
      [1, 'runtime.main', 12, 0],
      [2, 'main.main', 8, 1],
      [3, 'main.loop', 5, 0],
      [4, 'main.hash', 5, 5],
      [3, 'main.io', 2, 2],
      [2, 'main.io', 4, 4],
    ])
  })

  it('draws the sample type asked for, and only the samples --focus keeps', () => {
    const p = cpu({ 1: ['main.a'], 2: ['main.b'], 3: ['main.main'] }, [
      [[1, 3], 3],
      [[2, 3], 1],
    ])
    const g = flameGraph(p, { sampleIndex: 'samples', focus: 'main\\.b', minFraction: 0 })
    expect(g.sampleType).toBe('samples')
    expect(rows(g).map((r) => [r[1], (r[2] as number) * 1e7])).toEqual([
      ['root', 1],
      ['main.main', 1],
      ['main.b', 1],
    ])
    expect(g.activeFilters).toEqual(['focus=main\\.b'])
    expect(flameGraph(p, { focus: 'nothing' }).unmatchedFilters).toEqual(['focus'])
  })

  it('leaves out frames under the fraction, counting them and what they held, and keeps their samples in the parent', () => {
    const p = cpu({ 1: ['main.big'], 2: ['main.tiny'], 3: ['main.tinier'], 4: ['main.main'] }, [
      [[1, 4], 998],
      [[3, 2, 4], 2],
    ])
    const g = flameGraph(p, { minFraction: 0.01 })
    expect(rows(g).map((r) => r[1])).toEqual(['root', 'main.main', 'main.big'])
    expect(g.omitted).toEqual({ frames: 2, value: 2 * 1e7 })
    expect(g.value[1]).toBe(1000 * 1e7)
  })

  it('counts the frames under a frame left out as the distinct paths beneath it, shared prefixes once', () => {
    // Under main.main, main.tiny (3 samples of 1,000) is left out; beneath it main.a is shared by two stacks that
    // part at main.b / main.c, and main.d ends one stack early: tiny, a, b, c, d, e = 6 frames, not 8.
    const p = cpu({ 1: ['main.big'], 2: ['main.tiny'], 3: ['main.a'], 4: ['main.b'], 5: ['main.c'], 6: ['main.d'], 7: ['main.e'], 9: ['main.main'] }, [
      [[1, 9], 997],
      [[4, 3, 2, 9], 1],
      [[5, 3, 2, 9], 1],
      [[7, 6, 2, 9], 1],
    ])
    const g = flameGraph(p, { minFraction: 0.01 })
    expect(rows(g).map((r) => r[1])).toEqual(['root', 'main.main', 'main.big'])
    expect(g.omitted).toEqual({ frames: 6, value: 3 * 1e7 })
    expect(flameGraph(p, { minFraction: 0 }).value.length).toBe(3 + 6)
  })

  it.each([['go-cpu.pb.gz'], ['go-allocs.pb.gz'], ['synth-medium.pb.gz'], ['synth-drop.pb.gz'], ['synth-edge.pb.gz']])(
    '%s: the frames drawn and the frames left out add up to the whole merged tree, at every fraction',
    (file) => {
      const profile = decodeProfile(fixture(file))
      const whole = flameGraph(profile, { minFraction: 0 })
      for (const minFraction of [0.0001, 0.001, 0.01, 0.1]) {
        const g = flameGraph(profile, { minFraction })
        expect(g.value.length + g.omitted.frames, `${minFraction}`).toBe(whole.value.length)
        // What a left-out frame held stays in its parent: the root is as wide, and a kept frame's children never exceed it.
        expect(g.total).toBe(whole.total)
        expect(g.omitted.value).toBeLessThanOrEqual(whole.total)
      }
    },
  )

  it('is the tree a sample-by-sample merge builds, whatever the stacks: shared prefixes, call chains, stacks ending inside others', () => {
    // Few names and locations, so that stacks share prefixes, run in chains and end where others go on.
    const names = ['main.a', 'main.b', 'main.c', 'main.d']
    const spec = fc.record({
      locations: fc.array(fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
      samples: fc.array(fc.tuple(fc.array(fc.nat(4), { minLength: 1, maxLength: 8 }), fc.integer({ min: -1, max: 5 })), { minLength: 1, maxLength: 40 }),
      minFraction: fc.constantFrom(0, 0.01, 0.05, 0.2, 0.5),
    })
    fc.assert(
      fc.property(spec, ({ locations, samples, minFraction }) => {
        const ids = (stack: number[]) => stack.map((l) => (l % locations.length) + 1)
        const byId = Object.fromEntries(locations.map((lines, l) => [l + 1, lines]))
        const g = flameGraph(
          cpu(
            byId,
            samples.map(([stack, n]) => [ids(stack), n]),
          ),
          { minFraction },
        )
        const want = mergedOneByOne(
          samples.map(
            ([stack, n]) =>
              [
                ids(stack)
                  .flatMap((id) => byId[id]!)
                  .reverse(),
                n * 1e7,
              ] as const,
          ),
          minFraction,
        )
        const got = Array.from(g.name, (n, i) => [g.depth[i], g.names[n], g.value[i], g.self[i]])
        expect({ rows: got, omitted: g.omitted }).toEqual(want)
      }),
      { numRuns: 300 },
    )
  })

  it('merges as one by one when the names are too many for two bytes a frame (more than 65,535)', () => {
    // Each sample's stack is its own names and then shared ones, so the tree has names past 65,535 at every depth.
    const locations: ProfileSpec['locations'] = {}
    for (let i = 1; i <= 70_000; i++) locations[i] = [`f${i}`]
    const samples: [number[], number][] = []
    for (let s = 0; s < 200; s++) samples.push([[69_990 - (s % 7), 65_530 + (s % 11), 65_536 + (s % 3), 1 + (s % 5), 70_000], 1 + (s % 4)])
    const g = flameGraph(cpu(locations, samples), { minFraction: 0.01 })
    const want = mergedOneByOne(
      samples.map(([stack, n]) => [stack.map((id) => `f${id}`).reverse(), n * 1e7] as const),
      0.01,
    )
    expect({ rows: Array.from(g.name, (n, i) => [g.depth[i], g.names[n], g.value[i], g.self[i]]), omitted: g.omitted }).toEqual(want)
    expect(g.names.length).toBeGreaterThan(65_536)
    expect(g.omitted.frames).toBeGreaterThan(0)
  })

  it('survives a stack 5,000 frames deep without recursion', () => {
    const locations: ProfileSpec['locations'] = {}
    for (let i = 1; i <= 5_000; i++) locations[i] = [`f${i}`]
    const p = cpu(locations, [[Array.from({ length: 5_000 }, (_, i) => i + 1), 1]])
    const g = flameGraph(p, { minFraction: 0 })
    expect(g.maxDepth).toBe(5_000)
    expect(g.names[g.name[g.value.length - 1]!]).toBe('f1')
  })

  it.each([['go-cpu.pb.gz'], ['go-heap.pb.gz'], ['go-goroutine.pb.gz'], ['synth-medium.pb.gz'], ['synth-drop.pb.gz']])(
    '%s: every function is as wide in all as pprof top says (flat = self, cum = its outermost frames), and the widest frame is top --cum first',
    (file) => {
      const profile = decodeProfile(fixture(file))
      const g = flameGraph(profile, { minFraction: 0 })
      // synth-drop has samples of negative value, which pprof top adds and a flame graph cannot draw.
      const negative = profile.samples.values.filter((v) => v < 0).length
      expect(g.negativeSamples).toBe(file === 'synth-drop.pb.gz' ? 74 : 0)
      for (let i = 0; i < profile.samples.values.length; i++) if (profile.samples.values[i]! < 0) profile.samples.values[i] = 0
      expect(negative > 0).toBe(file === 'synth-drop.pb.gz')
      const top = topTable(profile, { nodeFraction: 0 })
      const ours = flatAndCum(g)
      // Distinct unnamed functions of one binary share a name ("[chaind]"): their rows add up under it, and
      // their cum is checked as one only where the name is one node's.
      const sameName = (name: string) => top.rows.filter((r) => r.name === name)
      for (const row of top.rows) {
        const rowsNamed = sameName(row.name)
        expect(ours.get(row.name)?.flat ?? 0, `${row.name} flat`).toBeCloseTo(
          rowsNamed.reduce((sum, r) => sum + r.flat, 0),
          3,
        )
        if (rowsNamed.length === 1) expect(ours.get(row.name)?.cum ?? 0, `${row.name} cum`).toBeCloseTo(row.cum, 3)
      }
      expect(g.value[0]).toBeCloseTo(top.total, 3)
      // Children come widest first, so the root's first child is the widest frame under the root.
      const byCum = topTable(profile, { nodeFraction: 0, cum: true }).rows[0]!
      expect(g.depth[1]).toBe(1)
      if (g.value[1] === byCum.cum) expect(g.names[g.name[1]!]).toBe(byCum.name)
      else expect(g.value[1]).toBeLessThan(byCum.cum) // that function is called from under several roots
    },
  )
})

/**
 * The flame graph the plain way, to check the fast merge against: each sample's names from the root added to a
 * tree one sample after another, children widest first (then by name), frames under the fraction counted.
 */
function mergedOneByOne(samples: (readonly [string[], number])[], minFraction: number) {
  interface Node {
    value: number
    self: number
    children: Map<string, Node>
  }
  const node = (): Node => ({ value: 0, self: 0, children: new Map() })
  const root = node()
  for (const [path, weight] of samples) {
    if (!(weight > 0)) continue
    let at = root
    at.value += weight
    for (const name of path) {
      const next = at.children.get(name) ?? node()
      at.children.set(name, next)
      next.value += weight
      at = next
    }
    at.self += weight
  }
  const cutoff = root.value * minFraction
  const size = (n: Node): number => 1 + [...n.children.values()].reduce((sum, c) => sum + size(c), 0)
  const rows: unknown[][] = []
  const omitted = { frames: 0, value: 0 }
  const walk = (name: string, n: Node, depth: number): void => {
    rows.push([depth, name, n.value, n.self])
    const children = [...n.children].filter(([, c]) => {
      if (c.value >= cutoff) return true
      omitted.frames += size(c)
      omitted.value += c.value
      return false
    })
    children.sort(([a, x], [b, y]) => y.value - x.value || (a < b ? -1 : a > b ? 1 : 0))
    for (const [childName, child] of children) walk(childName, child, depth + 1)
  }
  walk('root', root, 0)
  return { rows, omitted }
}

const HOSTILE = [
  'main.</script><script>alert(1)</script>',
  'main.<img src=x onerror=alert(2)>',
  '__proto__',
  'constructor',
  '\u001b]52;c;SGVsbG8=\u0007evil',
  'line\u2028break\u2029para',
  'main.<!--',
  'lone\ud800surrogate',
  'a & b "quoted" \'single\'',
]

function hostileGraph(): FlameGraph {
  const locations: ProfileSpec['locations'] = {}
  HOSTILE.forEach((name, i) => (locations[i + 2] = [name]))
  locations[1] = ['main.main']
  return flameGraph(
    cpu(
      locations,
      HOSTILE.map((_, i) => [[i + 2, 1], i + 1]),
    ),
    { minFraction: 0 },
  )
}

describe('flame graph page and picture', () => {
  it('the page carries every name as data that no name can close or bend, controls made visible', () => {
    const html = renderFlameHtml(hostileGraph(), { file: '</title><script>x()</script>.pb.gz' })
    expect(html.match(/<script\b/g)).toHaveLength(2)
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<!--')
    expect(['\u2028', '\u2029', '\u001b', '\u0007'].filter((c) => html.includes(c))).toEqual([])
    expect(html).toContain('<title>flame graph of &lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;.pb.gz: cpu</title>')
    const json = /<script type="application\/json" id="flame-data">(.*?)<\/script>/s.exec(html)![1]!
    const data = JSON.parse(json) as { names: string[] }
    expect(data.names).toEqual(expect.arrayContaining([HOSTILE[0], HOSTILE[1], '__proto__', 'constructor', '^[]52;c;SGVsbG8=^Gevil', HOSTILE[5]]))
  })

  it('the page loads nothing: a policy that allows no source but its own inline script and style, and no URL in it', () => {
    const html = renderFlameHtml(hostileGraph(), { file: 'cpu.pb.gz' }).replace(/(id="flame-data">).*?(<\/script>)/s, '$1$2')
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'`)
    expect(html).not.toMatch(/\bsrc=|\bhref=|https?:\/\/|@import|url\(/)
  })

  it('the picture is well-formed XML with every name as text, and no script', () => {
    const svg = renderFlameSvg(hostileGraph(), { file: 'cpu.pb.gz' })
    expect(XMLValidator.validate(svg)).toBe(true)
    // Names are text: the only tags are the picture's own, none a script, none with an event handler.
    const tags = svg.match(/<[^>]*>/g)!
    expect(tags.filter((tag) => /^<\/?script|\son\w+\s*=/i.test(tag))).toEqual([])
    const titles = JSON.stringify(new XMLParser().parse(svg))
    for (const name of [HOSTILE[0]!, HOSTILE[1]!, '__proto__', 'main.<!--']) expect(titles).toContain(JSON.stringify(name).slice(1, -1))
  })

  it("the picture's titles and labels are each escaped whole, for a name drawn once or in many frames, cut at a surrogate or not", () => {
    // Names that end in half a surrogate pair, start with the other half, carry markup and controls; each under
    // two callers, so that its frames repeat. A unit of the profile's own is a stranger's text too.
    const odd = ['main.end\ud83d', '\ude00main.start', 'main.<b>&"x"\u001b', `main.${'\ud83d\ude00'.repeat(30)}`]
    const locations: ProfileSpec['locations'] = { 1: ['main.a'], 2: ['main.b'] }
    odd.forEach((name, i) => (locations[i + 3] = [name]))
    const samples: [number[], number][] = odd.flatMap((_, i) => [
      [[i + 3, 1], 50 + i],
      [[i + 3, 2], 40 + i],
    ])
    const profile = cpu(locations, samples)
    profile.sampleTypes[1]!.unit = 'b<&>\ud800its'
    for (const sampleIndex of [0, 1]) {
      const g = flameGraph(profile, { minFraction: 0, sampleIndex })
      const svg = renderFlameSvg(g, { file: 'cpu.pb.gz' })
      expect(XMLValidator.validate(svg)).toBe(true)
      const titles = [...svg.matchAll(/<title>(.*?)<\/title>/g)].map((m) => m[1])
      const labels = [...svg.matchAll(/<text x="[\d.]+" y="\d+">(.*?)<\/text>/g)].map((m) => m[1])
      const want = Array.from(g.name, (n, i) => {
        const name = visible(g.names[n]!)
        const share = ((100 * g.value[i]!) / g.total).toFixed(2)
        return escapeMarkup(`${name} ${scaledLabel(g.value[i]!, g.unit, 'auto')} (${share}%)`)
      })
      expect(titles).toEqual(want)
      expect(labels.length).toBeGreaterThan(odd.length)
      for (const label of labels) expect(want.some((title) => title.startsWith(label!.replace(/\.\.$/, '')))).toBe(true)
    }
  })
})

describe('pprof flame output', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flame-'))

  it('takes its format from the name and refuses another', () => {
    expect(flameFormatOf('a/b.SVG')).toBe('svg')
    expect(flameFormatOf('x.htm')).toBe('html')
    expect(() => flameFormatOf('flame.png')).toThrow(/must end in \.html .* or \.svg/)
    expect(defaultFlameName('/tmp/heap.pb.gz')).toBe('heap.flame.html')
    expect(defaultFlameName('cpu.pprof')).toBe('cpu.flame.html')
  })

  it('writes through a temporary name, leaves nothing behind on a bad profile, and never over the profile', async () => {
    const bad = path.join(dir, 'bad.pb.gz')
    writeFileSync(bad, 'not a profile')
    await expect(writeFlame({ file: bad, output: path.join(dir, 'bad.html') }, FLAME_FORMATS)).rejects.toThrow()
    expect(readdirSync(dir)).toEqual(['bad.pb.gz'])
    const copy = path.join(dir, 'cpu.html')
    writeFileSync(copy, readFileSync(path.join(FIXTURES, 'go-cpu.pb.gz')))
    await expect(writeFlame({ file: copy, output: copy }, FLAME_FORMATS)).rejects.toThrow(/is the profile itself/)
    const written = await writeFlame({ file: path.join(FIXTURES, 'go-cpu.pb.gz'), output: path.join(dir, 'out.svg') }, FLAME_FORMATS)
    expect(written.format).toBe('svg')
    expect(existsSync(path.join(dir, 'out.svg'))).toBe(true)
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([])
  })
})
