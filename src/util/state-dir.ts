import { homedir } from 'node:os'
import path from 'node:path'

/** The user's cache directory of the tool: history, compiled code (KUBECTL_CHAINNODE_STATE_DIR overrides it). */
export function stateDir(env = process.env): string {
  return env.KUBECTL_CHAINNODE_STATE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(env.HOME ?? homedir(), '.cache'), 'kubectl-chainnode')
}

/** How help texts name the state directory: a rule, not this machine's path (help is generated into the README). */
export const STATE_DIR_HELP = 'KUBECTL_CHAINNODE_STATE_DIR, else $XDG_CACHE_HOME/kubectl-chainnode, else ~/.cache/kubectl-chainnode'
