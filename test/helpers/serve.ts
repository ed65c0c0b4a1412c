import { spawn, type ChildProcess } from 'node:child_process'
import { CLI, ROOT } from './cli.js'

export interface ServeProcess {
  child: ChildProcess
  url: string
  stderr: () => string
  /** SIGTERM, then the exit code (or signal) and how long it took. */
  stop: () => Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>
}

/** `chainnode serve ARGS --listen 127.0.0.1:0` as a real process; resolves once it says where it listens. */
export function startServe(args: string[], env: NodeJS.ProcessEnv, bin = CLI): Promise<ServeProcess> {
  const child = spawn(bin, ['serve', ...args, '--listen', '127.0.0.1:0'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', KUBECONFIG: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not say where it listens within 30s: ${stderr}`)), 30_000)
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(stderr)
      if (!match) return
      clearTimeout(timer)
      resolve({
        child,
        url: match[1],
        stderr: () => stderr,
        stop: async () => {
          const started = Date.now()
          child.kill('SIGTERM')
          const result = await exited
          return { ...result, ms: Date.now() - started }
        },
      })
    })
    void exited.then(({ code }) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code} before listening: ${stderr}`))
    })
  })
}

/** Poll until check returns something other than undefined, or fail with the last thing it saw. */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 90_000): Promise<T> {
  const until = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    try {
      const value = await check()
      if (value !== undefined) return value
    } catch (error) {
      last = error
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
