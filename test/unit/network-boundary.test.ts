import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The lint rule is what keeps "only src/cluster/ opens sockets" true: check that it bites where it should.
const eslint = new ESLint()
const restricted = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath }))[0].messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')

describe('network boundary lint rule', () => {
  it.each(['node:http', 'node:http2', 'node:net', 'node:tls', '@kubernetes/client-node', 'net'])('refuses %s outside src/cluster/', async (name) => {
    for (const file of ['src/rules/x.ts', 'src/app/x.ts', 'src/render/x.ts', 'src/commands/x.ts']) {
      expect(await restricted(file, `import m from '${name}'\nexport default m\n`)).toHaveLength(1)
      expect(await restricted(file, `export const m = () => import('${name}')\n`)).toHaveLength(1)
      // Built-ins loaded on first use, for a faster start, cross the same line.
      if (name.startsWith('node:')) expect(await restricted(file, `export const m = () => process.getBuiltinModule('${name}')\n`)).toHaveLength(1)
    }
  })

  it('allows them inside src/cluster/ and other modules anywhere', async () => {
    expect(await restricted('src/cluster/x.ts', `import m from 'node:net'\nexport default m\n`)).toEqual([])
    expect(await restricted('src/cluster/x.ts', `export const m = () => process.getBuiltinModule('node:http2')\n`)).toEqual([])
    expect(await restricted('src/util/x.ts', `export const m = () => process.getBuiltinModule('node:crypto')\n`)).toEqual([])
    expect(await restricted('src/rules/x.ts', `import m from 'node:fs'\nexport default m\n`)).toEqual([])
  })
})
