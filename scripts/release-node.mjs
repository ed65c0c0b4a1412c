// The Node runtime of the release executables, shared by scripts/release.mjs and the benchmarks.
import { homedir } from 'node:os'
import path from 'node:path'

export const RELEASE_NODE_VERSION = '24.21.0'

/** Where the Node binary of the npm package node-<platform> is unpacked once (by scripts/release.mjs). */
export function releaseNodeDir(platform, env = process.env) {
  return path.join(env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'kubectl-chainnode', 'node', RELEASE_NODE_VERSION, platform)
}
