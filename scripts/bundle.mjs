// Bundle every command into one ESM file (plus lazily loaded chunks) for oclif's explicit command
// discovery: one file to parse instead of a module graph of ~60 files at every start.
// The quick start (src/cli/quick.ts) is bundled on its own, without oclif, as CommonJS: bin/run.js
// loads it through src/code-cache.ts, and Node 20 has a code cache for scripts, not for ES modules.
// bin/run.js and what it loads first (start.cjs) are CommonJS too: no ES module loader at a quick start.
import { build } from 'esbuild'

const common = { bundle: true, platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning' }

await Promise.all([
  build({
    ...common,
    entryPoints: { commands: 'src/command-index.ts' },
    outdir: 'dist/bundle',
    format: 'esm',
    splitting: true,
    // Shared with bin/run.js (one oclif instance); client-node is loaded only for port-forwards.
    external: ['@oclif/core', '@kubernetes/client-node'],
    // CommonJS dependencies (cli-table3) call require(): give the ESM bundle one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  }),
  build({
    ...common,
    entryPoints: ['src/cli/start.ts'],
    outfile: 'dist/bundle/start.cjs',
    format: 'cjs',
  }),
  build({
    ...common,
    entryPoints: ['src/cli/quick.ts'],
    outfile: 'dist/bundle/quick.cjs',
    format: 'cjs',
    // Fewer bytes to read and hash at every start; names stay, so a --debug stack still reads.
    minifyWhitespace: true,
    minifySyntax: true,
    // Loaded only when a signer is probed through a port-forward, with require(): a dynamic import()
    // from code restored out of V8's cache finds no module loader in Node 20.
    external: ['@kubernetes/client-node'],
    supported: { 'dynamic-import': false },
  }),
])
