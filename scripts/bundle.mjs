// Bundle every command into one ESM file (plus lazily loaded chunks) for oclif's explicit command
// discovery: one file to parse instead of a module graph of ~60 files at every start.
import { build } from 'esbuild'

await build({
  entryPoints: { commands: 'src/command-index.ts' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Shared with bin/run.js (one oclif instance); client-node is loaded only for port-forwards.
  external: ['@oclif/core', '@kubernetes/client-node'],
  // CommonJS dependencies (cli-table3) call require(): give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
})
