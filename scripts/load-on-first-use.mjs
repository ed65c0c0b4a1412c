// An esbuild plugin for the startup-snapshot build of the single executable (scripts/release.mjs). A snapshot
// builder may load built-in modules only, and node:http, http2, https, tls and net hold handles V8 cannot
// serialize: each becomes a stand-in that loads the real module on first use, after the executable has
// started. esbuild's interop lists a module's keys when it is imported, so the stand-in knows them ahead
// (asked of the Node that builds the executable). client-node, loaded on demand, is the file beside the executable.
import { execFileSync } from 'node:child_process'

const NETWORK_BUILTINS = /^(node:)?(http|http2|https|tls|net|dns|zlib|crypto)$/

export function loadOnFirstUse(node) {
  const keysOf = (name) =>
    execFileSync(node, ['-p', `JSON.stringify(Reflect.ownKeys(require('node:${name}')).filter((k) => typeof k === 'string'))`], { encoding: 'utf8' }).trim()
  return {
    name: 'load-on-first-use',
    setup(build) {
      build.onResolve({ filter: NETWORK_BUILTINS }, (args) => ({ path: args.path.replace(/^node:/, ''), namespace: 'builtin-on-first-use' }))
      build.onResolve({ filter: /^@kubernetes\/client-node$/ }, () => ({ path: 'client-node', namespace: 'beside-executable' }))
      build.onLoad({ filter: /.*/, namespace: 'builtin-on-first-use' }, (args) => ({
        loader: 'js',
        contents: `const KEYS = ${keysOf(args.path)}
let loaded
const load = () => (loaded ??= process.getBuiltinModule('node:${args.path}'))
module.exports = new Proxy({}, {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
  ownKeys: () => KEYS,
  getOwnPropertyDescriptor: (_, key) => (KEYS.includes(key) ? { configurable: true, enumerable: true, writable: true, value: undefined } : undefined),
})`,
      }))
      build.onLoad({ filter: /.*/, namespace: 'beside-executable' }, () => ({
        loader: 'js',
        contents: `const path = require('node:path')
module.exports = require('node:module').createRequire(process.execPath)(path.join(path.dirname(process.execPath), 'lib', 'client-node.cjs'))`,
      }))
    },
  }
}
