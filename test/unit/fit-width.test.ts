import { describe, expect, it } from 'vitest'
import { makePalette } from '../../src/render/palette.js'
import { fitWidth } from '../../src/render/width.js'

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
