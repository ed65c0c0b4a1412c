import { existsSync, readFileSync } from 'node:fs'
import { credentialsFor } from '../cluster/auth.js'
import { KubeClient } from '../cluster/kube-client.js'
import { loadKubeconfig, kubeconfigFiles, resolveContext } from '../cluster/kubeconfig.js'
import { RULE_IDS } from '../engine/rule-ids.js'
import { CONTAINER_CHOICES } from '../app/logs.js'

/** cobra's ShellCompDirectiveNoFileComp: kubectl (and our scripts) read it from the last line. */
const NO_FILES = ':4'
const CLUSTER_TIMEOUT_MS = 1500

interface ManifestFlag {
  name: string
  char?: string
  type: 'boolean' | 'option'
  options?: string[]
  description?: string
}
interface ManifestCommand {
  id: string
  flags: Record<string, ManifestFlag>
  args: Record<string, unknown>
}

const VALUE_SOURCES: Record<string, (ctx: Context) => Promise<string[]>> = {
  namespace: (ctx) => listNames(ctx, '/api/v1/namespaces'),
  set: (ctx) => listNames(ctx, `/apis/cosmopilot.voluzi.com/v1/namespaces/${ctx.namespace ?? ''}/chainnodesets`, true),
  context: async (ctx) => [...(await loadKubeconfig(kubeconfigFiles({ kubeconfig: ctx.kubeconfig }))).contexts.keys()],
  rule: async () => [...RULE_IDS],
  'skip-rule': async () => [...RULE_IDS],
  // -c: the roles logs knows, then the containers of the node's Pod (named after the node) when the node is typed.
  container: async (ctx) => [...CONTAINER_CHOICES, ...(ctx.node ? await podContainers(ctx, ctx.node).catch(() => []) : [])],
}

interface Context {
  /** The node typed on the line, for values that depend on it (its Pod's containers). */
  node?: string
  kubeconfig?: string
  context?: string
  namespace?: string
}

/**
 * Answer a completion request the way cobra's __complete does: candidates one per line, then the
 * directive. Commands and flags come from oclif.manifest.json; node, set and namespace names from
 * the cluster with a short timeout. Anything that goes wrong yields no candidates, never an error text.
 */
export async function complete(words: string[], manifestPath: string | URL): Promise<string> {
  try {
    // Our own manifest, written by the build beside this file: its shape is the build's.
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { commands: Record<string, ManifestCommand> }
    const candidates = await candidatesFor(words.length ? words : [''], manifest.commands)
    return [...candidates, NO_FILES].join('\n')
  } catch {
    return NO_FILES
  }
}

async function candidatesFor(words: string[], commands: Record<string, ManifestCommand>): Promise<string[]> {
  const current = words.at(-1) ?? ''
  const before = words.slice(0, -1)
  const positional = before.filter((w, i) => !w.startsWith('-') && !takesValue(commands, before, i))
  const command = longestCommand(commands, positional)
  if (!command) {
    const typed = positional.join(' ')
    const ids = Object.keys(commands).map((id) => id.replace(/:/g, ' '))
    return [...new Set(ids.filter((id) => id.startsWith(typed ? `${typed} ` : '')).map((id) => id.slice(typed ? typed.length + 1 : 0).split(' ')[0]))]
      .filter((c) => c.startsWith(current))
      .sort()
  }
  const flags = Object.values(command.flags)
  const previous = before.at(-1)
  const valueFlag = previous?.startsWith('-') ? flags.find((f) => `--${f.name}` === previous || (f.char && `-${f.char}` === previous)) : undefined
  if (valueFlag && valueFlag.type === 'option') {
    if (valueFlag.options) return valueFlag.options.filter((o) => o.startsWith(current))
    // A flag with templated options (jsonpath=TEMPLATE) lists them in its help, as oclif-flags.ts writes it.
    const listed = /\n<options: ([^>\n]+)>$/.exec(valueFlag.description ?? '')
    if (listed)
      return listed[1]
        .split('|')
        .map((choice) => choice.replace(/=TEMPLATE$/, '='))
        .filter((o) => o.startsWith(current))
    const source = VALUE_SOURCES[valueFlag.name]
    const node = positional[command.id.split(':').length]
    return source ? [...new Set(await source({ ...contextOf(before), node }))].filter((n) => n.startsWith(current)) : []
  }
  if (current.startsWith('-'))
    return flags
      .map((f) => `--${f.name}`)
      .filter((f) => f.startsWith(current))
      .sort()
  const given = positional.length - command.id.split(':').length
  if (command.id === 'rules:explain' && given === 0) return RULE_IDS.filter((id) => id.startsWith(current))
  if ('name' in command.args && given === 0) {
    return (await listNames(contextOf(before), `/apis/cosmopilot.voluzi.com/v1/namespaces/${contextOf(before).namespace ?? ''}/chainnodes`, true)).filter((n) =>
      n.startsWith(current),
    )
  }
  return []
}

function longestCommand(commands: Record<string, ManifestCommand>, positional: string[]): ManifestCommand | undefined {
  for (let n = Math.min(positional.length, 3); n > 0; n--) {
    const id = positional.slice(0, n).join(':')
    if (commands[id]) return commands[id]
  }
  return undefined
}

function takesValue(commands: Record<string, ManifestCommand>, words: string[], index: number): boolean {
  const previous = words[index - 1]
  if (!previous?.startsWith('-') || previous.includes('=')) return false
  return Object.values(commands).some((c) =>
    Object.values(c.flags).some((f) => f.type === 'option' && (`--${f.name}` === previous || (f.char !== undefined && `-${f.char}` === previous))),
  )
}

function contextOf(words: string[]): Context {
  const value = (...names: string[]) => {
    for (let i = words.length - 2; i >= 0; i--) if (names.includes(words[i])) return words[i + 1]
    const inline = words.map((w) => /^--?([\w-]+)=(.*)$/.exec(w)).find((m) => m && names.includes(`--${m[1]}`))
    return inline?.[2]
  }
  return { kubeconfig: value('--kubeconfig'), context: value('--context'), namespace: value('-n', '--namespace') }
}

async function listNames(ctx: Context, path: string, namespaced = false): Promise<string[]> {
  if (ctx.kubeconfig && !existsSync(ctx.kubeconfig)) return []
  const resolved = await resolveContext({ kubeconfig: ctx.kubeconfig, context: ctx.context, namespace: ctx.namespace })
  const target = namespaced && !ctx.namespace ? path.replace('/namespaces//', `/namespaces/${resolved.namespace}/`) : path
  const client = new KubeClient({ server: resolved.cluster.server, credentials: await credentialsFor(resolved), timeoutMs: CLUSTER_TIMEOUT_MS, concurrency: 1 })
  try {
    const list = await client.getJSON<{ items?: { metadata: { name: string } }[] }>(`${target}?limit=500`)
    return (list.items ?? []).map((item) => item.metadata.name).sort()
  } finally {
    client.close()
  }
}

/** The containers (init containers first) of the Pod of a node; none when it cannot be read in time. */
async function podContainers(ctx: Context, node: string): Promise<string[]> {
  if (ctx.kubeconfig && !existsSync(ctx.kubeconfig)) return []
  const resolved = await resolveContext({ kubeconfig: ctx.kubeconfig, context: ctx.context, namespace: ctx.namespace })
  const client = new KubeClient({ server: resolved.cluster.server, credentials: await credentialsFor(resolved), timeoutMs: CLUSTER_TIMEOUT_MS, concurrency: 1 })
  try {
    const pod = await client.getJSON<{ spec?: { initContainers?: { name: string }[]; containers?: { name: string }[] } }>(
      `/api/v1/namespaces/${encodeURIComponent(ctx.namespace ?? resolved.namespace)}/pods/${encodeURIComponent(node)}`,
    )
    return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name)
  } finally {
    client.close()
  }
}
