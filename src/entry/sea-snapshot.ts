/**
 * The main script of a single executable that starts from a V8 startup snapshot (release/linux-x64-snapshot,
 * scripts/release.mjs), run once at build time: the entry point and every command's quick start are loaded
 * before the executable starts. bench/sea-snapshot.ts measures it against the shipped code cache; not shipped.
 */
import { createRequire } from 'node:module'
import v8 from 'node:v8'
import { main, type FromSnapshot } from './main.js'

export function startFromSnapshot(quick: FromSnapshot['quick']): void {
  v8.startupSnapshot.setDeserializeMainFunction(() => {
    // Restored code has no import(); a require() made here loads the oclif side, an ES module without top-level await.
    const load = (file: string) => createRequire(process.execPath)(file) as ReturnType<FromSnapshot['loadFramework']>
    void main(undefined, { quick, loadFramework: load })
  })
}
