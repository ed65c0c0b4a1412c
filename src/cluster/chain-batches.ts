import { COMET_RPC_PORT } from '../snapshot/chain.js'
import type { RpcResult } from '../snapshot/rpc-answer.js'
import type { ChainFacts, ProbeRecord } from '../snapshot/types.js'
import { rpcResults, type PodGet } from './chain-probe.js'

/** Paths per call on one node's forwarded RPC port (answers pipelined on its connection), and calls in flight per chain. */
const BATCH = 25
const PARALLEL = 2

export interface ChainBatchOptions {
  get: PodGet
  /** The node of the chain whose RPC is read (its probe record's target names the port). */
  source: ProbeRecord
  /** Bytes one call's answers may take. */
  answerBytes: number
  /** From `started`, after this long no further call is made. */
  started: number
  deadlineMs: number
  /** Paths one chain's read may cost in all (none: no bound but the deadline). */
  maxRequests?: number
  /** Runs a call: a shared limiter orders the calls of every chain of the run (default: at once). */
  slot?: (call: () => Promise<(RpcResult | undefined)[]>) => Promise<(RpcResult | undefined)[]>
}

/**
 * One chain's RPC reads from one of its nodes, for the signing count and the Cosmos SDK modules alike: paths asked in
 * pipelined batches, PARALLEL at once, each a path's result or undefined. Past the deadline or the request budget a
 * read gets nothing and `cut` says which; `problems` holds one line per path that got no answer.
 */
export class ChainBatches {
  /** Paths asked so far. */
  requests = 0
  cut?: 'deadline' | 'budget'
  readonly problems: string[] = []
  private readonly port: number
  /** Where rpcResults writes why a path got no answer. */
  private readonly facts: ChainFacts = { problems: this.problems }

  constructor(private readonly options: ChainBatchOptions) {
    this.port = Number(/:(\d+)$/.exec(options.source.target)?.[1] ?? COMET_RPC_PORT)
  }

  /** The results of `paths` in order; `bounded: false` asks them whatever the deadline and the budget (what all else needs). */
  async read(paths: string[], bounded = true): Promise<(RpcResult | undefined)[]> {
    const { get, source, answerBytes, started, deadlineMs, maxRequests, slot = (call) => call() } = this.options
    const results: (RpcResult | undefined)[] = paths.map(() => undefined)
    const batches: number[][] = []
    for (let i = 0; i < paths.length; i += BATCH) batches.push(paths.slice(i, i + BATCH).map((_, j) => i + j))
    let next = 0
    const worker = async () => {
      while (next < batches.length && !(bounded && this.cut)) {
        const batch = batches[next++]
        // Checked once the call has its turn: time spent waiting behind other chains counts.
        const answers = await slot(async () => {
          if (bounded && Date.now() - started > deadlineMs) this.cut ??= 'deadline'
          if (bounded && maxRequests !== undefined && this.requests + batch.length > maxRequests) this.cut ??= 'budget'
          if (bounded && this.cut) return batch.map(() => undefined)
          this.requests += batch.length
          return rpcResults(
            get,
            source.namespace,
            source.pod,
            this.port,
            batch.map((i) => paths[i]),
            this.facts,
            answerBytes,
          )
        })
        batch.forEach((i, k) => (results[i] = answers[k]))
      }
    }
    await Promise.all(Array.from({ length: PARALLEL }, worker))
    return results
  }
}
