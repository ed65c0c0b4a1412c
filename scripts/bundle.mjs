// Bundle every command into one ESM file (plus lazily loaded chunks) for oclif's explicit command
// discovery: one file to parse instead of a module graph of ~60 files at every start. framework.js, the
// oclif side of the entry point (src/entry/framework.ts), shares those chunks and oclif itself.
// The entry point (src/entry/main.ts -> entry.cjs) and the quick start are CommonJS: Node 20 starts a script
// faster than an ES module, and has a code cache (src/entry/code-cache.ts) for scripts, not for modules. The
// quick start is one small bundle per command (the command registry, src/commands/index.ts), so a run compiles only its own.
import { build } from 'esbuild'
import { COMMANDS } from '../dist/commands/index.js'
import { quickBundleName } from '../dist/entry/quick-commands.js'

const common = { bundle: true, platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning' }
const outdir = 'dist/bundle'

/** One command's quick start: its spec and runner with quickStart (src/entry/quick.ts), and nothing else. */
const quickBundle = (id, { module, spec, run }) =>
  build({
    ...common,
    stdin: {
      contents: `import { ${spec}, ${run} } from './${module}.js'\nimport { quickStart } from '../entry/quick.js'\nexport const runQuick = quickStart(${spec}, ${run})\n`,
      resolveDir: 'src/commands',
      sourcefile: `quick-${id}.ts`,
      loader: 'ts',
    },
    outfile: `${outdir}/${quickBundleName(id)}`,
    format: 'cjs',
    // Fewer bytes to read and hash at every start; names stay, so a --debug stack still reads.
    minifyWhitespace: true,
    minifySyntax: true,
    // Loaded only for port-forwards, with require(): a dynamic import() from code restored out of V8's
    // cache finds no module loader in Node 20.
    external: ['@kubernetes/client-node'],
    supported: { 'dynamic-import': false },
  })

await Promise.all([
  build({
    ...common,
    entryPoints: { commands: 'src/entry/command-index.ts', framework: 'src/entry/framework.ts' },
    outdir,
    format: 'esm',
    splitting: true,
    // One oclif instance for the commands and the entry point's oclif side; client-node is loaded only for port-forwards.
    external: ['@oclif/core', '@kubernetes/client-node'],
    // CommonJS dependencies (cli-table3) call require(): give the ESM bundle one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  }),
  build({ ...common, entryPoints: ['src/entry/main.ts'], outfile: `${outdir}/entry.cjs`, format: 'cjs' }),
  ...Object.entries(COMMANDS).map(([id, command]) => quickBundle(id, command)),
])
