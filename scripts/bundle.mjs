// Bundle every command into one ESM file (plus lazily loaded chunks) for oclif's explicit command
// discovery: one file to parse instead of a module graph of ~60 files at every start.
// The quick start (src/cli/quick.ts) is bundled on its own, without oclif: the commands it serves
// start without the framework at all.
import { build } from 'esbuild'

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS dependencies (cli-table3) call require(): give the ESM bundle one.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
}

await Promise.all([
  build({
    ...common,
    entryPoints: { commands: 'src/command-index.ts' },
    outdir: 'dist/bundle',
    splitting: true,
    // Shared with bin/run.js (one oclif instance); client-node is loaded only for port-forwards.
    external: ['@oclif/core', '@kubernetes/client-node'],
  }),
  build({
    ...common,
    entryPoints: { quick: 'src/cli/quick.ts' },
    outdir: 'dist/bundle',
    // What a run may not need (bundle reading, spinner, colour) stays in chunks loaded on demand.
    splitting: true,
    // Loaded only when a signer is probed through a port-forward.
    external: ['@kubernetes/client-node'],
  }),
])
