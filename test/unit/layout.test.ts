import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { RULE_IDS } from '../../src/rules/index.js'

/**
 * docs/architecture.md held against the code: each folder of src/ has one role, and the roles depend on one
 * another in one direction. What a folder may import is written here once; a new edge is a design decision,
 * so it shows up as a change of this table in review rather than slipping in with a feature.
 */
const MAY_IMPORT: Record<string, string[]> = {
  // Shell completion offers the rule ids (engine/rule-ids.ts) without loading the rules.
  entry: ['commands', 'app', 'cluster', 'engine', 'util'],
  commands: ['app', 'analysis', 'engine', 'rules', 'render', 'snapshot', 'pprof', 'util'],
  // What computes does not depend on what words it: a command hands app/ its renderers (serve, pprof flame).
  app: ['cluster', 'analysis', 'engine', 'rules', 'snapshot', 'timeline', 'pprof', 'util'],
  cluster: ['snapshot', 'pprof', 'util'],
  timeline: ['analysis', 'engine', 'snapshot', 'util'],
  render: ['analysis', 'engine', 'rules', 'snapshot', 'timeline', 'pprof', 'util'],
  rules: ['analysis', 'engine', 'snapshot', 'util'],
  // The rule ids are the engine's (engine/rule-ids.ts): the rules import the engine's kit, never the reverse.
  engine: ['snapshot', 'util'],
  analysis: ['engine', 'snapshot', 'util'],
  snapshot: ['util'],
  pprof: ['util'],
  util: [],
}

const ROOT = path.resolve(import.meta.dirname, '../..')
const SRC = path.join(ROOT, 'src')
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/g

interface Edge {
  from: string
  to: string
  typeOnly: boolean
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(SRC, file))
}

function importsOf(file: string): Edge[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => ({
    from: file,
    to: path.resolve(path.dirname(file), match[2] ?? match[3]).replace(/\.js$/, '.ts'),
    typeOnly: Boolean(match[1]),
  }))
}

const folderOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]
const show = (file: string) => path.relative(ROOT, file)

describe('source layout', () => {
  it('has only folders at the top of src/, each named in docs/architecture.md with its role', () => {
    const entries = readdirSync(SRC)
    expect(entries.filter((name) => !statSync(path.join(SRC, name)).isDirectory())).toEqual([])
    const documented = [...readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8').matchAll(/^ {2}([a-z-]+)\/ {2,}\S/gm)].map((m) => m[1])
    expect([...documented].sort()).toEqual([...entries].sort())
    expect(Object.keys(MAY_IMPORT).sort()).toEqual([...entries].sort())
  })

  it('names in docs/architecture.md only files that exist', () => {
    const text = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8')
    const named = [...text.matchAll(/\b(?:[a-z-]+\/)+[a-z.-]+\.(?:ts|cjs|mjs|js|md)\b/g)].map((m) => m[0])
    expect(named.length).toBeGreaterThan(20)
    expect(named.filter((file) => !existsSync(path.join(SRC, file)) && !existsSync(path.join(ROOT, file)))).toEqual([])
  })

  it('keeps every import in the direction the table allows', () => {
    const wrong: string[] = []
    for (const file of sourceFiles())
      for (const edge of importsOf(file)) {
        const [from, to] = [folderOf(edge.from), folderOf(edge.to)]
        if (from === to) continue
        const allowed = MAY_IMPORT[from] ?? []
        if (!allowed.includes(to) && !(edge.typeOnly && allowed.includes(`${to}:type`))) wrong.push(`${show(edge.from)} -> ${show(edge.to)}`)
      }
    expect(wrong).toEqual([])
  })

  it('lets no arrow run back up into rules/, not even for a type: what names rules lives below them', () => {
    const below = ['engine', 'analysis', 'snapshot', 'pprof', 'util']
    expect(below.flatMap((from) => MAY_IMPORT[from].filter((to) => to.startsWith('rules')).map((to) => `${from} -> ${to}`))).toEqual([])
  })

  it('allows only edges the code uses: an unused edge is a door left open for no one', () => {
    const used = new Set<string>()
    for (const file of sourceFiles())
      for (const edge of importsOf(file)) {
        const [from, to] = [folderOf(edge.from), folderOf(edge.to)]
        if (from === to) continue
        used.add(`${from} -> ${to}`)
        if (edge.typeOnly) used.add(`${from} -> ${to}:type`)
      }
    const unused = Object.entries(MAY_IMPORT).flatMap(([from, tos]) => tos.map((to) => `${from} -> ${to}`).filter((edge) => !used.has(edge)))
    expect(unused).toEqual([])
  })

  it('has no import cycles between files', () => {
    const graph = new Map(sourceFiles().map((file) => [file, importsOf(file).map((edge) => edge.to)]))
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, trail: string[]) => {
      state.set(file, 'open')
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...trail.slice(trail.indexOf(next)), next].map(show).join(' -> '))
        else if (!state.has(next) && graph.has(next)) visit(next, [...trail, next])
      }
      state.set(file, 'done')
    }
    for (const file of graph.keys()) if (!state.has(file)) visit(file, [file])
    expect(cycles).toEqual([])
  })

  // A flag's path through a command (docs/architecture.md "One doctor run"): each command is read on its own, and
  // the run's exit code is a value the runner returns, never a number written somewhere on the way.
  it('keeps commands apart: no command module imports another, and every runner returns an ExitCode', () => {
    const shared = ['flag-spec.ts', 'diagnosis-flags.ts', 'session.ts', 'index.ts'].map((name) => path.join(SRC, 'commands', name))
    const commands = sourceFiles().filter((file) => folderOf(file) === 'commands' && !shared.includes(file))
    const crossing = commands.flatMap(importsOf).filter((edge) => folderOf(edge.to) === 'commands' && !shared.includes(edge.to))
    expect(crossing.map((edge) => `${show(edge.from)} -> ${show(edge.to)}`)).toEqual([])
    const runners = commands.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/export (?:async )?function (run\w*)\([^)]*\)(:[^{]*)\{/g)].map((m) => ({ file, name: m[1], returns: m[2] })),
    )
    expect(runners.length).toBeGreaterThanOrEqual(commands.length)
    expect(runners.filter((r) => !/Promise<ExitCode>/.test(r.returns)).map((r) => `${show(r.file)} ${r.name}`)).toEqual([])
  })

  // The reader picks a snapshot source; what a source reads, and how, is the source's own.
  it('reads clusters and bundles only through the snapshot sources', () => {
    const reader = path.join(SRC, 'app', 'cluster-reader.ts')
    const reads = importsOf(reader).filter(
      (edge) => !edge.typeOnly && ['cluster', 'snapshot'].includes(folderOf(edge.to)) && !edge.to.endsWith('label-selector.ts'),
    )
    expect(reads.map((edge) => show(edge.to))).toEqual([])
  })

  // The operator's vocabulary (rules/vocabulary/) is the data and kit the vocabulary rules share; each rule is still its own file.
  it('holds only rules, their registry, the symptom rows they cover and the operator vocabulary in rules/', () => {
    const files = readdirSync(path.join(SRC, 'rules')).map((name) => name.replace(/\.ts$/, ''))
    const registry = ['index', 'spec-symptoms', 'vocabulary']
    expect(files.filter((name) => !registry.includes(name) && !(RULE_IDS as readonly string[]).includes(name))).toEqual([])
    const shared = readdirSync(path.join(SRC, 'rules', 'vocabulary')).map((name) => name.replace(/\.ts$/, ''))
    expect(shared.filter((name) => (RULE_IDS as readonly string[]).includes(name))).toEqual([])
  })
})

/**
 * Tests by subject: a rule's tests are in test/unit/rules/<id>.test.ts, and a file directly in test/unit/rules/
 * tests one rule (what tests the catalogue as a whole lives in test/unit/rules/catalogue/). A test of a module of
 * src/analysis or src/util is named after it in test/unit/analysis or test/unit/util.
 */
describe('tests by subject', () => {
  const TESTS = path.join(ROOT, 'test', 'unit')
  const testsIn = (folder: string) =>
    readdirSync(path.join(TESTS, folder), { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
      .map((entry) => entry.name.replace(/\.test\.ts$/, ''))

  it('every rule has its test/unit/rules/<id>.test.ts', () => {
    const tested = new Set(testsIn('rules'))
    expect(RULE_IDS.filter((id) => !tested.has(id))).toEqual([])
  })

  it('every test file directly in test/unit/rules/ is named after a rule', () => {
    expect(testsIn('rules').filter((name) => !(RULE_IDS as readonly string[]).includes(name))).toEqual([])
  })

  it.each(['analysis', 'util'])('every test file in test/unit/%s/ is named after a module of src/ it tests', (folder) => {
    expect(testsIn(folder).filter((name) => !existsSync(path.join(SRC, folder, `${name}.ts`)))).toEqual([])
  })
})

/**
 * docs/architecture.md "Adding a flag, a command, a rule" says how many files each change touches by hand. Those
 * counts are measured here: the fewest files of src/ that name a flag, a command's module or a rule's id, plus the
 * files outside src/ the change needs (a rule's page and test, a command's table in parse-argv.test.ts).
 */
describe('what a change touches, as docs/architecture.md says', () => {
  const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8')
  const stated = (change: string) => Number(new RegExp(`^\\|\\s*${change}\\s*\\|\\s*(\\d+)\\s*\\|`, 'm').exec(doc)?.[1])
  const texts = new Map(sourceFiles().map((file) => [show(file), readFileSync(file, 'utf8')]))
  const naming = (pattern: RegExp, own?: string) => [...texts].filter(([file, text]) => file === own || pattern.test(text)).map(([file]) => file)
  const fewest = (counts: number[]) => Math.min(...counts)
  const quoted = (name: string) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')

  it('a rule: its file, the registry, the ordered ids, its page and its test', () => {
    const counts = RULE_IDS.map((id) => {
      const files = naming(new RegExp(`'${quoted(id)}'|\\./${quoted(id)}\\.js'`), `src/rules/${id}.ts`)
      expect(files, id).toEqual(expect.arrayContaining([`src/rules/${id}.ts`, 'src/rules/index.ts', 'src/engine/rule-ids.ts']))
      expect(existsSync(path.join(ROOT, 'docs', 'rules', `${id}.md`)), id).toBe(true)
      return files.length + 2
    })
    expect(fewest(counts)).toBe(stated('a rule'))
  })

  it('a command: its module, its registry row, the oclif index and its parse-argv table', async () => {
    const { COMMANDS } = await import('../../src/commands/index.js')
    const modules = [...new Set(Object.values(COMMANDS).map((row) => row.module))]
    const parseArgvTest = readFileSync(path.join(ROOT, 'test', 'unit', 'parse-argv.test.ts'), 'utf8')
    const counts = modules.map((module) => {
      const files = naming(new RegExp(`module: '${quoted(module)}'|/${quoted(module)}\\.js'`), `src/commands/${module}.ts`)
      expect(files, module).toEqual(expect.arrayContaining([`src/commands/${module}.ts`, 'src/commands/index.ts', 'src/entry/command-index.ts']))
      expect(parseArgvTest, module).toMatch(new RegExp(`/src/commands/${quoted(module)}\\.js'`))
      return files.length + 1
    })
    expect(fewest(counts)).toBe(stated('a command'))
  })

  it('a flag of one command: its command module', async () => {
    const { COMMANDS } = await import('../../src/commands/index.js')
    const flags = new Set<string>()
    for (const row of Object.values(COMMANDS)) {
      const module = (await import(`../../src/commands/${row.module}.ts`)) as Record<string, { flags: object }>
      for (const flag of Object.keys(module[row.spec].flags)) flags.add(flag)
    }
    const counts = [...flags].map((flag) => naming(new RegExp(`'${quoted(flag)}'|--${quoted(flag)}(?![\\w-])|^\\s+${quoted(flag)}: \\{`, 'm')).length)
    expect(fewest(counts)).toBe(stated('a flag of one command'))
  })
})
