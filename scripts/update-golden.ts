// Rewrite the golden outputs (test/golden/) from the built CLI: `npm run golden:update`, after a change
// of output (and after merging one). Review the diff: it is the change users will see.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { runCli } from '../test/helpers/cli.js'
import { GOLDEN_DIR, goldenCases, goldenEnv } from '../test/helpers/golden.js'

const cases = goldenCases()
const failures: string[] = []
let next = 0
// Two at a time: the machine is shared, and each run is a whole process.
await Promise.all(
  [0, 1].map(async () => {
    while (next < cases.length) {
      const { file, args, columns } = cases[next++]
      const { code, stdout, stderr } = await runCli(args, { env: goldenEnv({ columns }) })
      if (code > 1 || stderr) failures.push(`${args.join(' ')}: exit ${code} ${stderr.trim()}`)
      mkdirSync(path.dirname(path.join(GOLDEN_DIR, file)), { recursive: true })
      writeFileSync(path.join(GOLDEN_DIR, file), stdout)
    }
  }),
)
const wanted = new Set(cases.map((c) => c.file))
for (const dir of readdirSync(GOLDEN_DIR)) {
  for (const file of readdirSync(path.join(GOLDEN_DIR, dir))) if (!wanted.has(`${dir}/${file}`)) rmSync(path.join(GOLDEN_DIR, dir, file))
}
process.stdout.write(`${cases.length} golden outputs written to ${path.relative(process.cwd(), GOLDEN_DIR) || '.'}/\n`)
if (failures.length) {
  process.stderr.write(`${failures.join('\n')}\n`)
  process.exitCode = 1
}
