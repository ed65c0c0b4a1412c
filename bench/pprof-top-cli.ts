// Our `go tool pprof -top` as a bare process, for bench/pprof-top.ts.
// Usage: pprof-top-cli FILE [-nodefraction=F] [-sample_index=X] [-cum] [-nodecount=N]
import { readFileSync } from 'node:fs'
import { decodeProfile } from '../src/pprof/decode.js'
import { renderTop } from '../src/pprof/format.js'
import { topTable, type TopOptions } from '../src/pprof/top.js'

const [file, ...flags] = process.argv.slice(2)
if (file === undefined) {
  process.stderr.write('usage: pprof-top-cli FILE [-nodefraction=F] [-sample_index=X] [-cum] [-nodecount=N]\n')
  process.exit(2)
}
const options: TopOptions = {}
for (const flag of flags) {
  const [name, value = ''] = flag.replace(/^-+/, '').split('=') as [string, string?]
  if (name === 'nodefraction') options.nodeFraction = Number(value)
  else if (name === 'sample_index') options.sampleIndex = value
  else if (name === 'cum') options.cum = true
  else if (name === 'nodecount') options.nodeCount = Number(value)
  else {
    process.stderr.write(`unknown flag ${flag}\n`)
    process.exit(2)
  }
}
process.stdout.write(renderTop(topTable(decodeProfile(readFileSync(file), { source: file }), options)))
