import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { SERVE_COMMAND, runServe } from '../../../commands/serve.js'

export default class Serve extends KubeCommand {
  static summary = 'Run doctor every interval and serve the findings and chain readings to Prometheus'
  static description = `A long-running process: every --interval it reads the nodes in scope as doctor does (probes included) and answers
  /metrics  Prometheus text format: chainnode_finding{namespace,chainnode,rule,severity}, chainnode_height, chainnode_block_age_seconds, chainnode_peers, chainnode_catching_up, chainnode_probe_success, chainnode_validator_jailed, and the exporter's own health
  /healthz, /readyz (ready once the first cycle has finished)
  /report   the latest doctor report as JSON (the schema of doctor -o json)

A cycle never overlaps the next. A cycle that cannot read the cluster keeps the last readings and sets chainnode_last_run_success to 0. SIGTERM ends it at once.
Without NAME, --set or -A it watches the namespace. Alerts to load into Prometheus: deploy/prometheus/alerts.yaml; in-cluster manifests: deploy/serve/.`
  static examples = [
    '<%= config.bin %> serve -A',
    '<%= config.bin %> serve -n cosmos --listen 127.0.0.1:9844 --interval 30s',
    '<%= config.bin %> serve --set cosmoshub -n cosmos --no-probe',
  ]
  static args = oclifArgs(SERVE_COMMAND.args)
  static flags = oclifFlags(SERVE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Serve)
    process.exitCode = await runServe({ ...flags, name: args.name }, this.session)
  }
}
