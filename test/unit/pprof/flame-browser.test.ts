import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumInstalled, launchChromium, type Browser } from '../../helpers/chromium.js'
import { ROOT, runCli } from '../../helpers/cli.js'

// `pprof flame`'s page opened in a real browser (Debian's Chromium, scripts/setup-chromium.sh), made by the CLI as a
// real process from a real Go CPU profile (examples/profiles/cpu.pb.gz, test/profgen), checked against `pprof top`,
// which equals `go tool pprof -top` (test/unit/pprof/live-go.test.ts). CHAINNODE_UPDATE_SCREENSHOT=1 also writes the
// README's picture, docs/pprof-flame.png (npm run screenshot:flame).
const PROFILE = 'examples/profiles/cpu.pb.gz'
const SKIPPED = chromiumInstalled() ? '' : ' (skipped: /usr/bin/chromium is not installed; scripts/setup-chromium.sh installs it, npm test runs it)'

interface Frame {
  name: string
  index: number
  left: number
  width: number
  classes: string
}

const framesOf = (page: Page): Promise<Frame[]> =>
  page.$$eval('#chart .frame', (elements) =>
    elements.map((e) => {
      const box = e.getBoundingClientRect()
      return { name: e.textContent ?? '', index: Number((e as HTMLElement).dataset.index), left: box.left, width: box.width, classes: e.className }
    }),
  )

interface TopJson {
  total: number
  showing: { value: number }
  rows: { name: string; cum: number; cumPct: number }[]
}

async function topJson(...args: string[]): Promise<TopJson> {
  const result = await runCli(['pprof', 'top', PROFILE, '--node-fraction', '0', '-o', 'json', ...args])
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as TopJson
}

describe.skipIf(SKIPPED !== '')(`pprof flame in headless Chromium${SKIPPED}`, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flame-browser-'))
  const page = { html: path.join(dir, 'cpu.html'), svg: path.join(dir, 'cpu.svg') }
  const requests: string[] = []
  const errors: string[] = []
  let browser: Browser
  let tab: Page
  let chartWidth = 0

  beforeAll(async () => {
    for (const output of [page.html, page.svg]) {
      const made = await runCli(['pprof', 'flame', PROFILE, '-o', output])
      expect(made.code, made.stderr).toBe(0)
      expect(made.stderr).toContain(`wrote ${output}`)
    }
    browser = await launchChromium()
    tab = await browser.context.newPage()
    tab.on('request', (request) => requests.push(request.url()))
    tab.on('pageerror', (error) => errors.push(error.message))
    tab.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())))
    await tab.goto(pathToFileURL(page.html).href)
    await tab.waitForSelector('body[data-ready="true"]')
    chartWidth = await tab.$eval('#chart', (chart) => chart.clientWidth)
  }, 60_000)
  afterAll(() => browser?.close())

  it('renders every visible frame without an error and asks for nothing beyond the file itself', async () => {
    expect(errors).toEqual([])
    expect(requests).toEqual([pathToFileURL(page.html).href])
    const frames = await framesOf(tab)
    expect(frames.length).toBeGreaterThan(100)
    expect(frames.find((f) => f.index === 0)).toMatchObject({ name: 'root', width: chartWidth })
  })

  it('makes the widest frame under the root the function with the most samples, as wide as pprof top --cum says', async () => {
    const [first] = (await topJson('--cum')).rows
    const frames = (await framesOf(tab)).filter((f) => f.index !== 0)
    const widest = frames.reduce((a, b) => (b.width > a.width ? b : a))
    expect(widest.name).toBe(first!.name)
    expect(widest.width / chartWidth).toBeCloseTo(first!.cumPct / 100, 2)
  })

  it('highlights exactly the frames a search matches and shows the share of samples pprof top --focus keeps', async () => {
    await tab.fill('#search', '^sort\\.')
    const frames = await framesOf(tab)
    const matched = frames.filter((f) => f.classes.includes('match'))
    expect(matched.length).toBeGreaterThan(5)
    expect(matched.filter((f) => !/^sort\./i.test(f.name))).toEqual([])
    expect(frames.filter((f) => !f.classes.includes('match') && /^sort\./i.test(f.name))).toEqual([])
    const focused = await topJson('--focus', '^sort\\.')
    const share = ((100 * focused.showing.value) / focused.total).toFixed(2)
    expect(await tab.textContent('#matched')).toMatch(new RegExp(`^Matched: ${share.replace('.', '\\.')}% \\(`))
    // Not a regexp: searched for as plain text, no error.
    await tab.fill('#search', 'sort.(')
    expect(await tab.textContent('#matched')).toMatch(/^Matched: 0(\.00)?% /)
    await tab.fill('#search', '')
    expect((await framesOf(tab)).filter((f) => f.classes.includes('match'))).toEqual([])
    expect(errors).toEqual([])
  })

  it('zooms to a clicked frame, redraws what is under it in proportion, and zooms out with Reset and Escape', async () => {
    const before = await framesOf(tab)
    const target = before.find((f) => f.name === 'main.sortHeights')!
    const child = before.find((f) => f.name === 'sort.Slice' && f.left >= target.left && f.left < target.left + target.width)!
    const elsewhere = before.find((f) => f.name === 'main.hashChain')!
    expect([target, child, elsewhere].every(Boolean)).toBe(true)

    await tab.click(`#chart .frame[data-index="${target.index}"]`)
    const after = await framesOf(tab)
    const zoomed = after.find((f) => f.index === target.index)!
    expect(zoomed.classes).toContain('zoomed')
    expect(zoomed.width).toBeCloseTo(chartWidth, 0)
    const childAfter = after.find((f) => f.index === child.index)!
    expect(childAfter.width / zoomed.width).toBeCloseTo(child.width / target.width, 2)
    expect(after.find((f) => f.index === elsewhere.index)).toBeUndefined()
    expect(after.filter((f) => f.classes.includes('ancestor')).map((f) => f.name)).toEqual(['main.work', 'main.runWorkload.func1', 'root'])

    await tab.click('#reset')
    expect((await framesOf(tab)).find((f) => f.index === elsewhere.index)?.width).toBeCloseTo(elsewhere.width, 1)
    await tab.click(`#chart .frame[data-index="${target.index}"]`)
    await tab.keyboard.press('Escape')
    expect((await framesOf(tab)).find((f) => f.index === target.index)?.width).toBeCloseTo(target.width, 1)
    expect(errors).toEqual([])
  })

  it('takes the picture the README shows: a search highlighted, a frame pointed at', async () => {
    await tab.fill('#search', '^sort\\.')
    await tab.hover('#chart .frame[data-index="1"]')
    const png = await tab.screenshot({ fullPage: false })
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    if (process.env.CHAINNODE_UPDATE_SCREENSHOT === '1') writeFileSync(path.join(ROOT, 'docs', 'pprof-flame.png'), png)
  })

  it('says there is nothing to draw when a filter leaves no sample', async () => {
    const empty = path.join(dir, 'empty.html')
    const made = await runCli(['pprof', 'flame', PROFILE, '--focus', 'no-such-function', '-o', empty])
    expect(made.stderr).toContain('warning: no function, file or binary matches --focus no-such-function')
    const other = await browser.context.newPage()
    await other.goto(pathToFileURL(empty).href)
    await other.waitForSelector('body[data-ready="true"]')
    expect(await other.textContent('#details')).toBe('No samples to draw: the profile holds none of this type, or --focus/--ignore left none.')
    expect(await other.$$('#chart .frame')).toEqual([])
    await other.close()
  })

  it('shows the SVG picture as an image, every frame drawn', async () => {
    const svg = await browser.context.newPage()
    await svg.goto(pathToFileURL(page.svg).href)
    expect(await svg.evaluate(() => document.documentElement.tagName)).toBe('svg')
    expect(await svg.$$eval('g > rect', (rects) => rects.filter((r) => r.getBoundingClientRect().width >= 1).length)).toBe(
      (readFileSync(page.svg, 'utf8').match(/<g>/g) ?? []).length,
    )
    await svg.close()
  })
})
