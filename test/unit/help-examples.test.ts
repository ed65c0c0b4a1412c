import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

interface ManifestCommand {
  examples?: string[]
  hidden?: boolean
}
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, ManifestCommand> }
const commands = Object.entries(manifest.commands).filter(([, command]) => !command.hidden)

/** Commands that only make sense against a cluster: they read it (collect, serve) or port-forward into a Pod (captures). */
const LIVE_ONLY = new Set(['collect', 'serve', 'pprof:heap', 'pprof:profile', 'pprof:trace', 'pprof:goroutine', 'pprof:allocs', 'pprof:block', 'pprof:mutex'])

// A scratch directory stands in for the user's: the shipped examples are there, files an example writes land there.
const scratch = mkdtempSync(path.join(tmpdir(), 'help-examples-'))
symlinkSync(path.join(ROOT, 'examples'), path.join(scratch, 'examples'))
mkdirSync(path.join(scratch, '.config', 'fish', 'completions'), { recursive: true })

/** Run an example exactly as written, in bash, with the executables on PATH and no cluster configured. */
function runExample(example: string) {
  const line = example.replace(/<%= config\.bin %>/g, 'kubectl-chainnode')
  const env = { ...process.env, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}`, HOME: scratch, KUBECONFIG: '', NO_COLOR: '1' }
  const result = spawnSync('bash', ['-c', `set -o pipefail; ${line}`], { cwd: scratch, env, encoding: 'utf8', timeout: 60_000 })
  return { line, code: result.status, stderr: result.stderr }
}

describe('every help example runs as written', () => {
  it.each(commands.map(([id, command]) => [id.replace(/:/g, ' '), id, command.examples ?? []] as const))('%s', (_name, id, examples) => {
    expect(examples.length, 'a command needs examples in its help').toBeGreaterThan(0)
    let offline = 0
    for (const example of examples) {
      const { line, code, stderr } = runExample(example)
      // Without a cluster an example for one says so and stops there; every other example must run.
      const needsCluster = code === 2 && /no kubeconfig found/.test(stderr)
      expect(needsCluster || code === 0 || code === 1, `${line}: exit ${code}: ${stderr}`).toBe(true)
      if (!needsCluster) offline++
    }
    if (!LIVE_ONLY.has(id)) expect(offline, 'at least one example runs on the shipped bundles (examples/)').toBeGreaterThan(0)
  })
})
