/**
 * How the user ran us: as `kubectl chainnode` (kubectl runs the plugin binary kubectl-chainnode, and the
 * completion helper is kubectl_complete-chainnode) or as `chainnode`. Hints name commands the way the user
 * types them, so a hint can be pasted as it is.
 */
export function invokedAsPlugin(argv: readonly string[] = process.argv, execPath = process.execPath): boolean {
  const base = (file: string | undefined) => (file ?? '').split(/[\\/]/).pop() ?? ''
  // The npm bin is argv[1] (node runs it); the single executable is the binary itself.
  return [base(argv[1]), base(execPath)].some((name) => /^kubectl[-_](complete-)?chainnode\b/.test(name))
}

/**
 * "chainnode <command>" in a hint, not already "kubectl chainnode" (a wrapped line may break between the two words)
 * and not part of another word or path: the commands are listed, so a node or a chain that happens to be called
 * chainnode is left alone.
 */
const HINT =
  /(?<![\w./-]|kubectl\s+)chainnode (?=(?:collect|completion|config-hash|describe|doctor|events|logs|pprof|rules|serve|signer|status|timeline|version)\b|--help\b)/g

/** The text with its hints as the user invoked us: "kubectl chainnode doctor" when run as a kubectl plugin. */
export function asInvoked(text: string, plugin = invokedAsPlugin()): string {
  return plugin ? text.replace(HINT, 'kubectl chainnode ') : text
}
