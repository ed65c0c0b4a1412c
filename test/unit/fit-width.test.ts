import { afterEach, describe, expect, it } from 'vitest'
import { makePalette } from '../../src/render/palette.js'
import { fitWidth, tableWidth } from '../../src/render/width.js'

// eslint-disable-next-line no-control-regex
const shown = (line: string) => line.replace(/\u001b\[[0-9;]*m/g, '')

describe('fitWidth', () => {
  it('cuts plain lines to the width with an ellipsis and leaves short ones alone', () => {
    expect(fitWidth(`short\n${'x'.repeat(130)}`, 120).split('\n')).toEqual(['short', `${'x'.repeat(119)}…`])
    expect(fitWidth('x'.repeat(130), undefined)).toBe('x'.repeat(130))
  })

  it('counts only what shows on a painted line, and resets the colour after the cut', async () => {
    const palette = await makePalette(true)
    const line = `  ${palette.paint('error', 'E'.repeat(200))} tail`
    const cutLine = fitWidth(line, 120)
    expect(shown(cutLine)).toBe(`  ${'E'.repeat(117)}…`)
    expect(cutLine.endsWith('…\u001b[0m')).toBe(true)
    const short = `  ${palette.paint('ok', 'fine')}`
    expect(fitWidth(short, 120)).toBe(short)
  })
})

describe('the width output is laid out for', () => {
  const saved = process.env.KUBECTL_CHAINNODE_COLUMNS
  afterEach(() => {
    if (saved === undefined) delete process.env.KUBECTL_CHAINNODE_COLUMNS
    else process.env.KUBECTL_CHAINNODE_COLUMNS = saved
  })

  it("is the terminal's, never less than 80; piped there is none (nothing is cut)", () => {
    delete process.env.KUBECTL_CHAINNODE_COLUMNS
    expect(tableWidth({ isTTY: true, columns: 220 })).toBe(220)
    expect(tableWidth({ isTTY: true, columns: 60 })).toBe(80)
    expect(tableWidth({ isTTY: false, columns: 220 })).toBeUndefined()
    expect(tableWidth({})).toBeUndefined()
  })

  it('KUBECTL_CHAINNODE_COLUMNS stands for a terminal that wide', () => {
    process.env.KUBECTL_CHAINNODE_COLUMNS = '200'
    expect(tableWidth({})).toBe(200)
    process.env.KUBECTL_CHAINNODE_COLUMNS = '40'
    expect(tableWidth({})).toBe(80)
  })
})
