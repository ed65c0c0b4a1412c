import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { typeAwareLintKey } from '../../scripts/type-aware-lint-key.mjs'

const GLOBALS = [
  'interface Array<T> { length: number; [n: number]: T }',
  ...['Boolean', 'CallableFunction', 'Function', 'IArguments', 'NewableFunction', 'Number', 'Object', 'RegExp', 'String'].map((name) => `interface ${name} {}`),
  'interface Promise<T> { then(onfulfilled: (value: T) => void): void }',
  'interface PromiseConstructor {}',
  'declare var Promise: PromiseConstructor',
].join('\n')
const TOOLS = { eslint: '9.0.0', typescriptEslint: '8.0.0' }

/** A two-file project: b.ts calls a function of a.ts as a statement, where no-floating-promises looks. */
function project(): { dir: string; write: (file: string, text: string) => void; key: (options?: ts.CompilerOptions, tools?: object) => string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'lint-key-'))
  const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text)
  // The few globals the checker needs, instead of parsing TypeScript's lib files at every build.
  write('globals.d.ts', GLOBALS)
  write('a.ts', 'export function later(): void {\n  void 0\n}\n')
  write('b.ts', "import { later } from './a.js'\n\nexport function use(): void {\n  later()\n}\n")
  const buildInfo = path.join(dir, 'typecheck.tsbuildinfo')
  const key = (options: ts.CompilerOptions = {}, tools: object = TOOLS) => {
    // What `tsc --incremental --noEmit` does: check what changed since the build info, then write it.
    const program = ts.createIncrementalProgram({
      rootNames: ['globals.d.ts', 'a.ts', 'b.ts', 'c.ts'].map((file) => path.join(dir, file)).filter((file) => ts.sys.fileExists(file)),
      options: {
        incremental: true,
        noEmit: true,
        tsBuildInfoFile: buildInfo,
        strict: true,
        target: ts.ScriptTarget.ES2022,
        noLib: true,
        types: [],
        ...options,
      },
    })
    expect([...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()]).toEqual([])
    program.emit()
    return typeAwareLintKey(buildInfo, tools)
  }
  return { dir, write, key }
}

describe('the key of the type-aware lint cache (npm run check)', () => {
  it('stays while only the inside of a function changes', () => {
    const { write, key } = project()
    key()
    // A fresh build records each file's content; the first change records its shape, which later edits keep.
    write('a.ts', 'export function later(): void {\n  void 1\n}\n')
    const first = key()
    write('a.ts', 'export function later(): void {\n  void 2\n}\n')
    expect(key()).toBe(first)
    write('a.ts', 'export function later(): void {\n  const twice = [1, 2].length * 2\n  void twice\n}\n')
    expect(key()).toBe(first)
  })

  it('changes when a function another file calls becomes async, which a per-file cache would miss', () => {
    const { write, key } = project()
    const first = key()
    write('a.ts', 'export async function later(): Promise<void> {\n  void 0\n}\n')
    expect(key()).not.toBe(first)
  })

  it('changes with a new file, the compiler options or the tools', () => {
    const { write, key } = project()
    const first = key()
    expect(key({ strict: false })).not.toBe(first)
    expect(key({}, { ...TOOLS, typescriptEslint: '8.0.1' })).not.toBe(first)
    expect(key()).toBe(first)
    write('c.ts', 'export const c = 1\n')
    expect(key()).not.toBe(first)
  })
})
