import type { ChalkInstance } from 'chalk'

/** Severity-like meanings a renderer can colour; colours are chosen here and nowhere else. */
export type Meaning = 'error' | 'warning' | 'info' | 'ok' | 'muted' | 'heading' | 'subject' | 'rule'

export interface Palette {
  enabled: boolean
  paint(meaning: Meaning, text: string): string
}

export const plainPalette: Palette = { enabled: false, paint: (_meaning, text) => text }

/** Colour is on only for a terminal, and never with NO_COLOR or --no-color. */
export function colorWanted(stream: NodeJS.WriteStream, noColorFlag: boolean, env = process.env): boolean {
  if (noColorFlag) return false
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  return Boolean(stream.isTTY)
}

export async function makePalette(enabled: boolean): Promise<Palette> {
  if (!enabled) return plainPalette
  const { Chalk } = await import('chalk')
  const chalk: ChalkInstance = new Chalk({ level: 1 })
  const styles: Record<Meaning, (text: string) => string> = {
    error: chalk.red.bold,
    warning: chalk.yellow,
    info: chalk.cyan,
    ok: chalk.green,
    muted: chalk.gray,
    heading: chalk.bold,
    subject: chalk.bold,
    rule: chalk.magenta,
  }
  return { enabled: true, paint: (meaning, text) => styles[meaning](text) }
}
