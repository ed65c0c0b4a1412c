import { visible } from './visible.js'

export interface Progress {
  update(text: string): void
  stop(): void
}

const silent: Progress = { update: () => undefined, stop: () => undefined }

/** A spinner on stderr, only when stderr is a terminal; piped or captured output stays clean. */
export async function progress(text: string): Promise<Progress> {
  // A terminal that reports no width (a bare pty) would make the spinner's line arithmetic divide by zero.
  if (!process.stderr.isTTY || process.env.CI || !process.stderr.columns) return silent
  const { default: ora } = await import('ora')
  // Neither hides the cursor nor takes the keyboard: both would attach signal listeners (signal-exit) or read
  // Ctrl-C as a key (raw mode), and either makes Ctrl-C wait for synchronous work to end (src/util/cleanup.ts).
  // ora writes to the stream itself, so its text is guarded here: it names bundles, folders and nodes.
  const spinner = ora({ text: visible(text), stream: process.stderr, hideCursor: false, discardStdin: false }).start()
  return { update: (next) => (spinner.text = visible(next)), stop: () => spinner.stop() }
}

/** A countdown for timed captures; on a terminal only. */
export async function countdown(text: string, seconds: number): Promise<Progress> {
  const spinner = await progress(`${text}: ${seconds}s left`)
  const end = Date.now() + seconds * 1000
  const timer = setInterval(() => spinner.update(`${text}: ${Math.max(0, Math.ceil((end - Date.now()) / 1000))}s left`), 1000)
  return {
    update: spinner.update,
    stop: () => {
      clearInterval(timer)
      spinner.stop()
    },
  }
}
