import { ClusterReader } from '../app/cluster-reader.js'
import { Output } from '../render/output.js'

/**
 * What a command's runner is handed besides its input: the run's output (colour, printing, progress, the unredacted
 * mark) and its one reader of the cluster, with no CLI framework behind them. The oclif commands and the quick start
 * both make one per run.
 */
export class Session {
  readonly output = new Output()
  readonly reader: ClusterReader

  /** root: where package.json and docs/ are (the package, or the single executable's directory). */
  constructor(
    readonly version: string,
    readonly root: string,
  ) {
    this.reader = new ClusterReader(version, this.output)
  }

  close(): void {
    this.reader.close()
  }
}
