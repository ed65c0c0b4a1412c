import { RECENT_BLOCK_MS } from '../snapshot/chain.js'
import type { Evidence } from '../engine/define-rule.js'
import type { LogLine } from '../snapshot/log-lines.js'
import { committedHeightOf, heightOf, isCommit, parseChainLine, type ChainLogEntry } from '../snapshot/chain-log.js'

export interface ChainLogSignals {
  /** The last two `Ensure peers` lines counted no inbound and no outbound peer. */
  zeroPeers?: Evidence
  /** PEX found nothing to dial, after the last peer was added. */
  nothingToDial?: Evidence
  /** No seed answered, after the last peer was added. */
  seedsUnreachable?: Evidence
  /** Consensus timed out at a height it never committed, and nothing was committed since. */
  consensusStuck?: Evidence
  /** A height was committed near the end of the log: the node is making progress. */
  progressing: boolean
}

/** How recent a committed height must be to count as progress: what the probe calls a recent block. */
const PROGRESS_WINDOW_MS = RECENT_BLOCK_MS

/**
 * What a chain container's own log says about peers and consensus, the newest lines deciding.
 * `now` is when the log was read: a log that simply stopped still tells how old its last commit is.
 */
export function chainLogSignals(lines: LogLine[], source: string, now?: number): ChainLogSignals {
  const entries = lines.map(parseChainLine).filter((e): e is ChainLogEntry => e !== undefined)
  const evidence = (e: ChainLogEntry): Evidence => ({ kind: 'log', source, text: e.text, at: e.at })
  const lastIndex = (test: (e: ChainLogEntry) => boolean) => {
    for (let i = entries.length - 1; i >= 0; i--) if (test(entries[i])) return i
    return -1
  }
  const ensure = entries.filter((e) => e.msg === 'Ensure peers')
  const noPeers = (e: ChainLogEntry) => e.fields.numOutPeers === '0' && e.fields.numInPeers === '0'
  const lastAdded = lastIndex((e) => /^Added peer|^Peer connected/i.test(e.msg))
  const afterAdded = (test: (e: ChainLogEntry) => boolean) => {
    const i = lastIndex(test)
    return i > lastAdded ? entries[i] : undefined
  }
  const noAddresses = entries.filter((e) => /^no addresses to dial/i.test(e.msg))
  const committed = entries.filter(isCommit)
  const committedHeight = committedHeightOf(committed)
  const progressing = isProgressing(entries, committed, now)
  const stuck = entries[lastIndex((e) => e.msg === 'Timed out' && e.fields.step !== 'RoundStepNewHeight' && heightOf(e) > committedHeight)]
  return {
    zeroPeers: ensure.length >= 2 && ensure.slice(-2).every(noPeers) ? evidence(ensure.at(-1)!) : undefined,
    nothingToDial: noAddresses.length >= 2 && afterAdded((e) => /^no addresses to dial/i.test(e.msg)) ? evidence(noAddresses.at(-1)!) : undefined,
    seedsUnreachable: mapDefined(
      afterAdded((e) => /couldn't connect to any seeds/i.test(e.msg)),
      evidence,
    ),
    consensusStuck: progressing ? undefined : mapDefined(stuck, evidence),
    progressing,
  }
}

function isProgressing(entries: ChainLogEntry[], committed: ChainLogEntry[], now: number | undefined): boolean {
  const newestCommit = committed.at(-1)
  if (!newestCommit || new Set(committed.map((e) => e.fields.height)).size < 2) return false
  const reference = now ?? (entries.at(-1)!.at ? Date.parse(entries.at(-1)!.at!) : undefined)
  if (newestCommit.at && reference !== undefined) return reference - Date.parse(newestCommit.at) <= PROGRESS_WINDOW_MS
  return entries.length - entries.lastIndexOf(newestCommit) <= 20
}

const mapDefined = <T, U>(value: T | undefined, fn: (v: T) => U): U | undefined => (value === undefined ? undefined : fn(value))
