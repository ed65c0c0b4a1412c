/**
 * What bin/run.js needs to decide on and load the quick start, bundled into one small file
 * (dist/bundle/start.cjs): one module to load at every start instead of three.
 */
export { loadWithCodeCache } from '../code-cache.js'
export { stateDir } from '../state-dir.js'
export { QUICK_COMMANDS } from './quick-commands.js'
export { reportIfAbandoned } from './unfinished.js'
export { notFoundCommand, unknownCommandLine } from './unknown-command.js'
