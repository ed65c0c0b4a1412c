import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'

/** Debian's Chromium, installed by scripts/setup-chromium.sh; playwright-core drives it and never downloads one. */
export const CHROMIUM = '/usr/bin/chromium'

export const chromiumInstalled = (): boolean => existsSync(CHROMIUM)

/** Headless, sandbox off (root in CI), and nothing that would reach the network on its own. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface Browser {
  context: BrowserContext
  close: () => Promise<void>
}

/** A browser with a fresh profile folder, removed on close. */
export async function launchChromium(viewport = { width: 1200, height: 720 }): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'))
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport })
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
