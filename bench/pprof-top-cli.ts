// Our `go tool pprof -top` as a bare process, for bench/pprof-top.ts.
// Usage: pprof-top-cli FILE [-nodefraction=F] [-sample_index=X] [-cum] [-nodecount=N] [-diff_base=OLD] [-focus=RE] [-ignore=RE]
import { readFileSync } from 'node:fs'
import { decodeProfile } from '../src/pprof/decode.js'
import { diffProfiles } from '../src/pprof/diff.js'
import { renderTop } from '../src/pprof/format.js'
import { topTable, type TopOptions } from '../src/pprof/top.js'

const [file, ...flags] = process.argv.slice(2)
if (file === undefined) {
  process.stderr.write('usage: pprof-top-cli FILE [-nodefraction=F] [-sample_index=X] [-cum] [-nodecount=N]\n')
  process.exit(2)
}
const options: TopOptions = {}
let base: string | undefined
for (const flag of flags) {
  const [name, value = ''] = flag.replace(/^-+/, '').split('=') as [string, string?]
  if (name === 'nodefraction') options.nodeFraction = Number(value)
  else if (name === 'sample_index') options.sampleIndex = value
  else if (name === 'cum') options.cum = true
  else if (name === 'nodecount') options.nodeCount = Number(value)
  else if (name === 'diff_base') base = value
  else if (name === 'focus') options.focus = value
  else if (name === 'ignore') options.ignore = value
  else {
    process.stderr.write(`unknown flag ${flag}\n`)
    process.exit(2)
  }
}
const profile = decodeProfile(readFileSync(file), { source: file })
const compared = base === undefined ? profile : diffProfiles(profile, decodeProfile(readFileSync(base), { source: base }))
process.stdout.write(renderTop(topTable(compared, options)))
