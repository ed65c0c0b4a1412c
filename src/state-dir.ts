import { homedir } from 'node:os'
import path from 'node:path'

/** The user's cache directory of the tool: history, compiled code (KUBECTL_CHAINNODE_STATE_DIR overrides it). */
export function stateDir(env = process.env): string {
  return env.KUBECTL_CHAINNODE_STATE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(env.HOME ?? homedir(), '.cache'), 'kubectl-chainnode')
}
