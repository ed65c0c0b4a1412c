import { afterEach, describe, expect, it } from 'vitest'
import { tableWidth } from '../../src/render/width.js'

describe('the width output is laid out for', () => {
  const saved = process.env.KUBECTL_CHAINNODE_COLUMNS
  afterEach(() => {
    if (saved === undefined) delete process.env.KUBECTL_CHAINNODE_COLUMNS
    else process.env.KUBECTL_CHAINNODE_COLUMNS = saved
  })

  it("is the terminal's, never less than 80; piped there is none", () => {
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
