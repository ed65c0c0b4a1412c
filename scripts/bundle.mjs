// Bundle every command into one ESM file (plus lazily loaded chunks) for oclif's explicit command
// discovery: one file to parse instead of a module graph of ~60 files at every start. framework.js, the
// oclif side of the entry point (src/entry/framework.ts), shares those chunks and oclif itself.
// The entry point (src/entry/main.ts -> entry.cjs) and the quick start are CommonJS: Node 20 starts a script
// faster than an ES module, and has a code cache (src/entry/code-cache.ts) for scripts, not for modules. The
// quick start is one small bundle per command (the command registry, src/commands/index.ts), so a run compiles only its own.
// A part only some runs need is a bundle of its own beside them (PARTS), loaded on demand with its own code cache.
import { build } from 'esbuild'
import { COMMANDS } from '../dist/commands/index.js'
import { quickBundleName } from '../dist/entry/quick-commands.js'

const common = { bundle: true, platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning' }
const outdir = 'dist/bundle'
// The Cosmos SDK probe: its decoders (cosmjs-types) are 40% of a command's bundle, and only runs that probe chains use
// them (src/cluster/collect.ts imports it on demand). Every status or events run read and held them with its bundle.
const PARTS = [{ module: 'src/cluster/cosmos-probe.ts', imported: /\/cosmos-probe\.js$/, file: 'quick-cosmos-probe.cjs' }]
/** The quick bundles' import() of a part becomes require('./<file>'), which src/entry/code-cache.ts loads. */
const partsApart = {
  name: 'parts-apart',
  setup(build) {
    for (const part of PARTS) build.onResolve({ filter: part.imported }, () => ({ path: `./${part.file}`, external: true }))
  },
}
/** What the quick bundles and their parts are built with (CommonJS, see quick.ts and code-cache.ts). */
const quickOptions = {
  ...common,
  format: 'cjs',
  // Fewer bytes to read and hash at every start; names stay, so a --debug stack still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  // Loaded only for port-forwards, with require(): a dynamic import() from code restored out of V8's
  // cache finds no module loader in Node 20.
  external: ['@kubernetes/client-node'],
  supported: { 'dynamic-import': false },
}

/** One command's quick start: its spec and runner with quickStart (src/entry/quick.ts), and nothing else. */
const quickBundle = (id, { module, spec, run }) =>
  build({
    stdin: {
      contents: `import { ${spec}, ${run} } from './${module}.js'\nimport { quickStart } from '../entry/quick.js'\nexport const runQuick = quickStart(${spec}, ${run})\n`,
      resolveDir: 'src/commands',
      sourcefile: `quick-${id}.ts`,
      loader: 'ts',
    },
    outfile: `${outdir}/${quickBundleName(id)}`,
    ...quickOptions,
    plugins: [partsApart],
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
  ...PARTS.map((part) => build({ ...quickOptions, entryPoints: [part.module], outfile: `${outdir}/${part.file}` })),
])
