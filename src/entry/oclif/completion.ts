import { Args } from '@oclif/core'
import { BaseCommand } from './command.js'

const SCRIPTS: Record<string, string> = {
  bash: `# kubectl-chainnode bash completion: source <(kubectl-chainnode completion bash)
_kubectl_chainnode() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local out
  out=$(kubectl-chainnode __complete "\${COMP_WORDS[@]:1:$COMP_CWORD}" 2>/dev/null | grep -v '^:')
  COMPREPLY=( $(compgen -W "$out" -- "$cur") )
}
complete -F _kubectl_chainnode kubectl-chainnode chainnode
`,
  zsh: `#compdef kubectl-chainnode chainnode
# kubectl-chainnode zsh completion: source <(kubectl-chainnode completion zsh)
_kubectl_chainnode() {
  local -a candidates
  candidates=("\${(@f)$(kubectl-chainnode __complete "\${(@)words[2,CURRENT]}" 2>/dev/null | grep -v '^:')}")
  compadd -- $candidates
}
compdef _kubectl_chainnode kubectl-chainnode chainnode
`,
  fish: `# kubectl-chainnode fish completion: kubectl-chainnode completion fish | source
complete -c kubectl-chainnode -c chainnode -f -a '(kubectl-chainnode __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null | string match -v ":*")'
`,
}

export default class Completion extends BaseCommand {
  static override summary = 'Print a shell completion script (bash, zsh or fish)'
  static override description =
    'Through kubectl (1.26+), `kubectl chainnode <TAB>` completes with the kubectl_complete-chainnode executable shipped next to kubectl-chainnode. Commands and flags complete offline; node, set, namespace and context names are read from the cluster with a short timeout.'
  static override examples = [
    'source <(<%= config.bin %> completion bash)',
    '<%= config.bin %> completion fish > ~/.config/fish/completions/kubectl-chainnode.fish',
  ]
  static override args = { shell: Args.string({ description: 'shell', options: Object.keys(SCRIPTS), required: true }) }

  override async run(): Promise<void> {
    const { args, flags } = await this.parse(Completion)
    await this.setupOutput(flags)
    this.print(SCRIPTS[args.shell])
  }
}
