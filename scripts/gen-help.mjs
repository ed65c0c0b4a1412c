// The help texts the entry point prints without loading oclif (src/entry/quick-help.ts): what oclif itself
// prints for `--help` of the top level, every command and every topic, off a terminal (80 columns, no
// colour). Run by `npm run build` after the manifest, and by scripts/release.mjs for the executable's own
// oclif root: node scripts/gen-help.mjs [ROOT [OUT]]. test/unit/quick-help.test.ts compares them with oclif.
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'

process.env.OCLIF_COLUMNS = '80'
process.env.NO_COLOR = '1'
delete process.env.FORCE_COLOR
const { Config, run } = await import('@oclif/core')
const { USER_AGENT_MARK } = await import('../dist/entry/quick-help.js')

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'))
const out = process.argv[3] ?? path.join(root, 'dist', 'bundle', 'help.json')
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
const manifest = JSON.parse(readFileSync(path.join(root, 'oclif.manifest.json'), 'utf8'))
const config = await Config.load(root)

const ids = ['', ...Object.keys(pkg.oclif.topics ?? {}), ...Object.keys(manifest.commands).map((id) => id.replace(/:/g, ' '))]
const texts = {}
const write = process.stdout.write
for (const id of ids) {
  let text = ''
  process.stdout.write = (chunk) => ((text += String(chunk)), true)
  try {
    await run([...(id ? id.split(' ') : []), '--help'], root)
  } finally {
    process.stdout.write = write
  }
  texts[id] = text.replaceAll(config.userAgent, USER_AGENT_MARK)
}
// `help CMD` is a command of the help plugin: where it is not installed, oclif answers it with an error.
const helpCommand = config.findCommand('help') !== undefined
writeFileSync(`${out}.partial`, JSON.stringify({ helpCommand, texts }))
renameSync(`${out}.partial`, out)
