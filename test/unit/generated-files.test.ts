import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { describe, expect, it } from 'vitest'

// Generated files are committed and shipped: they must read the same on every build machine.
describe('generated files carry no path of the machine that built them', () => {
  it.each(['oclif.manifest.json', 'README.md'])('%s', (file) => {
    const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')
    expect(text).not.toContain(homedir())
    expect(text).not.toContain(process.cwd())
  })
})
