import { spawnSync } from 'node:child_process'
import path from 'node:path'

/**
 * The synthetic CPU profile the pprof benchmarks share, written by test/profgen into `dir`: 400,000 samples,
 * 4,000 functions, 12,000 locations, inlined frames, recursion, about 11 MB gzipped; another seed gives
 * another profile of the same size (a -diff_base).
 */
export function syntheticProfile(dir: string, seed?: number): string {
  const file = path.join(dir, seed === undefined ? 'synthetic-cpu.pb.gz' : `synthetic-cpu-${seed}.pb.gz`)
  process.stdout.write(`generating the synthetic profile${seed === undefined ? '' : ` (seed ${seed})`} with test/profgen ... `)
  const args = ['run', '.', 'synth', '-out', file, ...(seed === undefined ? [] : ['-seed', String(seed)])]
  const gen = spawnSync('go', args, { cwd: path.resolve(import.meta.dirname, '..', 'test', 'profgen'), stdio: 'inherit' })
  if (gen.status !== 0) throw new Error('go run ./test/profgen synth failed (is Go installed?)')
  console.log('done')
  return file
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
