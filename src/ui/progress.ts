export interface Progress {
  update(text: string): void
  stop(): void
}

const silent: Progress = { update: () => undefined, stop: () => undefined }

/** A spinner on stderr, only when stderr is a terminal; piped or captured output stays clean. */
export async function progress(text: string): Promise<Progress> {
  if (!process.stderr.isTTY || process.env.CI) return silent
  const { default: ora } = await import('ora')
  const spinner = ora({ text, stream: process.stderr }).start()
  return { update: (next) => (spinner.text = next), stop: () => spinner.stop() }
}
