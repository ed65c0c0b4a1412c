import fc from 'fast-check'
import MarkdownIt from 'markdown-it'
import { describe, expect, it } from 'vitest'
import { diagnose, selectRules } from '../../src/app/doctor.js'
import { timelines } from '../../src/app/timeline.js'
import { renderDoctorMarkdown } from '../../src/render/doctor-markdown.js'
import { mdCell, mdCode, mdFence, mdText } from '../../src/render/markdown.js'
import { renderTimelineMarkdown } from '../../src/render/timeline-markdown.js'
import { visible } from '../../src/render/visible.js'
import type { Snapshot } from '../../src/snapshot/types.js'
import { smallSnapshot } from '../helpers/hostile.js'
import { editable } from '../helpers/bundles.js'

/*
 * Issue 31, item 2: Markdown from a stranger's text. A real CommonMark parser with GFM tables and linkify
 * (markdown-it, HTML allowed as a ticket renderer allows it) reads what we write: untrusted text must come
 * back as the same text, never as HTML, a link, an image, a heading or an extra table cell.
 */
const md = new MarkdownIt({ html: true, linkify: true })
type Token = ReturnType<typeof md.parse>[number]

/** Every token, inline children included. */
function tokensOf(markdown: string): Token[] {
  const out: Token[] = []
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      out.push(token)
      if (token.children) walk(token.children)
    }
  }
  walk(md.parse(markdown, {}))
  return out
}

/** What a reader sees of one inline: its text and code spans, in order. */
const inlineText = (tokens: Token[]) =>
  tokens
    .filter((t) => t.type === 'text' || t.type === 'code_inline' || t.type === 'softbreak')
    .map((t) => (t.type === 'softbreak' ? '\n' : t.content))
    .join('')

const LINKS = /:\/\/|www\.|@|#\w/i
const HOSTILE = [
  '```\n# Heading\n<img src=x onerror=alert(1)>\n````',
  '`code` **bold** _em_ ~~gone~~ [link](https://evil.example) ![img](https://evil.example/x.png)',
  '<https://auto.example> www.evil.example mail@evil.example @team #123 &lt;b&gt; &amp; a|b \\ end\\',
  '\n\n# injected heading\n\n<script>alert(1)</script>\n\n| a | b |\n|---|---|\n',
  '<details><summary>x</summary>',
  '    indented\n> quote\n- item\n1. item\n---\n===',
  '`` ` ``` ```` ` ``',
  ' lead and trail ',
  '\u001b]52;c;cHduZWQ=\u0007\u202e\r',
]
/** Text and code spans: what a stranger's text must come back as, and what must not appear around it. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...HOSTILE, '`', '``', '<', '>', '&', '\\', '|', '*', '_', '#', '@', '!', '[', ']', '(', ')', ' ', '\n', 'a', 'x.y'),
      fc.string({ maxLength: 4 }),
    ),
    {
      maxLength: 12,
    },
  )
  .map((parts) => parts.join(''))

/** The text as the renderers mean it to read: one line, controls visible. */
const asRead = (text: string) => visible(text).replace(/[\n\t]+/g, ' ')

function expectNoMarkup(tokens: Token[]) {
  for (const token of tokens) {
    expect(['html_inline', 'html_block', 'link_open', 'image', 'heading_open', 'em_open', 'strong_open', 's_open', 'fence', 'code_block']).not.toContain(
      token.type,
    )
    if (token.type === 'text') expect(token.content).not.toMatch(LINKS)
  }
}

describe('markdown: a stranger text reads as itself', () => {
  it('mdText: one paragraph whose text is the input, no HTML, emphasis, link, image or linkable word outside a code span', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const tokens = tokensOf(`Said: ${mdText(text)}`)
        expectNoMarkup(tokens)
        expect(tokens.filter((t) => t.type === 'paragraph_open')).toHaveLength(1)
        expect(inlineText(tokens).replace(/ +/g, ' ')).toBe(`Said: ${asRead(text).trim()}`.replace(/ +/g, ' ').trimEnd())
      }),
      { numRuns: 400 },
    )
  })

  it('mdCell: one cell per column whatever the text holds', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (a, b) => {
        const tokens = tokensOf(['| A | B |', '|---|---|', `| ${mdCell(a)} | ${mdCell(b)} |`].join('\n'))
        expectNoMarkup(tokens)
        expect(tokens.filter((t) => t.type === 'td_open')).toHaveLength(2)
        const cells: string[] = []
        let current: Token[] | undefined
        for (const t of tokens) {
          if (t.type === 'td_open') current = []
          else if (t.type === 'td_close') cells.push(inlineText(current!).replace(/ +/g, ' '))
          else if (current && t.type !== 'inline') current.push(t)
        }
        expect(cells).toEqual([asRead(a).trim().replace(/ +/g, ' '), asRead(b).trim().replace(/ +/g, ' ')])
      }),
      { numRuns: 300 },
    )
  })

  it('mdCode: one code span holding the text exactly, even with backticks at its ends', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        fc.pre(asRead(text).trim() !== '')
        const tokens = tokensOf(`Code ${mdCode(text)} here`)
        const code = tokens.filter((t) => t.type === 'code_inline')
        expect(code).toHaveLength(1)
        expect(code[0].content).toBe(asRead(text))
        expect(tokens.some((t) => t.type.startsWith('html') || t.type === 'link_open')).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it('mdFence: one fenced block holding the lines exactly; a fence in the text cannot close it', () => {
    fc.assert(
      fc.property(fc.array(hostileText, { maxLength: 5 }), (texts) => {
        const lines = texts.flatMap((t) => t.split('\n'))
        const tokens = tokensOf([...mdFence(lines), '', 'after'].join('\n'))
        const fences = tokens.filter((t) => t.type === 'fence')
        expect(fences).toHaveLength(1)
        expect(fences[0].content).toBe(lines.map((line) => `${visible(line)}\n`).join(''))
        expect(inlineText(tokens.filter((t) => t.type === 'text'))).toBe('after')
      }),
      { numRuns: 300 },
    )
  })
})

/** The small bundle's node, with a hostile string in every field a report shows. */
function hostileSnapshot(h: string): Snapshot {
  const snapshot = smallSnapshot()
  const [node, pod, event] = editable(snapshot)
  node.metadata.name = `node-0${h}`
  node.metadata.namespace = `ns${h}`
  node.status = { phase: `Phase${h}`, message: `message${h}` }
  pod.metadata.namespace = node.metadata.namespace
  pod.metadata.ownerReferences![0].name = node.metadata.name
  event.metadata.namespace = node.metadata.namespace
  event.involvedObject = { ...event.involvedObject, name: node.metadata.name, namespace: node.metadata.namespace }
  event.reason = `Reason${h}`
  event.message = `Event message${h}`
  snapshot.logs = [
    {
      ...snapshot.logs[0],
      namespace: node.metadata.namespace,
      text: `${JSON.stringify({ level: 'error', ts: '2026-11-22T09:58:00Z', msg: `log line${h}` })}\n`,
    },
  ]
  snapshot.collectionErrors = [{ what: `list Events${h}`, reason: `Forbidden${h}`, message: `error${h}` } as unknown as Snapshot['collectionErrors'][number]]
  snapshot.probes = [
    {
      kind: 'chain',
      namespace: node.metadata.namespace,
      pod: node.metadata.name,
      target: `http://t${h}`,
      ok: false,
      detail: `detail${h}`,
      at: snapshot.collectedAt,
    },
  ]
  snapshot.scope = { kind: 'namespace', namespace: node.metadata.namespace }
  snapshot.source = { context: `context${h}`, server: `https://server.example${h}` }
  return snapshot
}

/** Our own HTML (the Evidence fold) and nothing else; headings only ours; every table row as wide as its header. */
function expectOnlyOurMarkup(markdown: string, headings: RegExp) {
  const tokens = tokensOf(markdown)
  for (const t of tokens) {
    if (t.type === 'html_block') expect(t.content.trim()).toMatch(/^(<details><summary>Evidence<\/summary>|<\/details>)$/)
    expect(['html_inline', 'link_open', 'image']).not.toContain(t.type)
    if (t.type === 'text') expect(t.content).not.toMatch(LINKS)
  }
  tokens.forEach((t, i) => {
    if (t.type === 'heading_open') expect(tokens[i + 1].content).toMatch(headings)
  })
  // Each table's rows are as wide as its header, and every line that starts a row is parsed as one.
  let columns = 0
  let cells = 0
  for (const t of tokens) {
    if (t.type === 'thead_open') columns = 0
    if (t.type === 'th_open') columns++
    if (t.type === 'tr_open') cells = 0
    if (t.type === 'td_open') cells++
    if (t.type === 'tr_close' && cells > 0) expect(cells).toBe(columns)
  }
  const rowLines = tokens.filter((t) => t.type === 'tr_open').length
  const inFences = tokens.filter((t) => t.type === 'fence').flatMap((t) => t.content.split('\n'))
  expect(
    markdown.split('\n').filter((line) => line.startsWith('|') && !line.startsWith('|---')).length -
      inFences.filter((l) => l.startsWith('|') && !l.startsWith('|---')).length,
  ).toBe(rowLines)
  const html = md.render(markdown)
  expect(html).not.toMatch(/<(img|script|a|h\d>injected)/)
}

describe('markdown reports: a hostile string in every field', () => {
  const rules = selectRules({})
  for (const h of HOSTILE) {
    it(`doctor -o markdown and timeline -o markdown hold ${JSON.stringify(h.slice(0, 30))}`, () => {
      const snapshot = hostileSnapshot(h)
      const doctor = renderDoctorMarkdown(diagnose([snapshot], rules, `bundle${h}.tgz`))
      expectOnlyOurMarkup(doctor, /^(kubectl chainnode doctor|Cluster |🔴|🟠|🔵|Incomplete$)/)
      // The Evidence fold holds the stranger's lines exactly, its fence unbroken.
      const fences = tokensOf(doctor).filter((t) => t.type === 'fence')
      expect(fences.length).toBeGreaterThan(0)
      expect(fences.some((f) => f.content.includes(visible(h.split('\n')[0])))).toBe(true)
      expect(tokensOf(doctor).some((t) => t.type === 'inline' && t.content.startsWith('could not list'))).toBe(true)

      const timeline = renderTimelineMarkdown(timelines([snapshot], rules, {}, `bundle${h}.tgz`))
      expectOnlyOurMarkup(timeline, /^(kubectl chainnode timeline|Cluster |ChainNode )/)
      expect(tokensOf(timeline).filter((t) => t.type === 'tr_open').length).toBeGreaterThan(2)
    })
  }
})
