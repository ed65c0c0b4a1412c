import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import http from 'node:http'
import { join } from 'node:path'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

export const LEAKGEN = join(dirname(fileURLToPath(import.meta.url)), '../../leakgen')

/** Builds test/leakgen into `dir` and starts it on a free loopback port. */
export async function startLeakgen(dir: string, args: string[] = []): Promise<{ port: number; child: ChildProcess }> {
  const bin = join(dir, 'leakgen')
  execFileSync('go', ['build', '-o', bin, '.'], { cwd: LEAKGEN, stdio: 'ignore', env: { ...process.env, GOFLAGS: '-buildvcs=false', CGO_ENABLED: '0' } })
  const portFile = join(dir, 'leakgen.port')
  const child = spawn(bin, ['-port', '0', '-port-file', portFile, ...args], { stdio: 'ignore' })
  for (let i = 0; i < 100 && !existsSync(portFile); i++) await new Promise((r) => setTimeout(r, 50))
  return { port: Number(readFileSync(portFile, 'utf8')), child }
}

/** GET a /debug/pprof path into a file. */
export function fetchTo(port: number, path: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => writeFile(file, Buffer.concat(chunks)).then(resolve, reject))
      })
      .on('error', reject)
  })
}
