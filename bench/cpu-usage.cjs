// Preloaded by bench/timeline.ts (NODE_OPTIONS=--require): the run's own CPU time, user + system, in
// microseconds, as the last line on stderr. CPU time counts only this process's work, so it is far
// less shaken by other load on the machine than wall time.
'use strict'
process.on('exit', () => {
  const { user, system } = process.cpuUsage()
  process.getBuiltinModule('node:fs').writeSync(2, `bench-cpu-us: ${user + system}\n`)
})
