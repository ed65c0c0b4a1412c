/** Log content of a node pod's containers: node-utils (logrus) and the chain app (CometBFT JSON). */
import { comet, logrus, type LogLine } from './logfmt.js'
import { BLOCK_SECONDS, upperHex } from './util.js'

/** Heights are a pure function of time, so a refresh can re-stamp them without state. */
const REF = Date.UTC(2026, 0, 1)
const CHAIN_BASE: Record<string, number> = {
  'cosmoshub-4': 28_450_000,
  'nibiru-testnet-2': 9_120_000,
  'theta-testnet-001': 26_310_000,
}

export function chainHeight(chainID: string, at: Date): number {
  const base = CHAIN_BASE[chainID] ?? 1_000_000
  return base + Math.floor((at.getTime() - REF) / 1000 / BLOCK_SECONDS)
}

/** Time at which `chainID` produced block `h` (inverse of chainHeight). */
export function blockTime(chainID: string, h: number): Date {
  const base = CHAIN_BASE[chainID] ?? 1_000_000
  return new Date(REF + (h - base) * BLOCK_SECONDS * 1000 + 1234)
}

function secs(n: number): string {
  if (n < 60) return `${n.toFixed(3)}s`
  const m = Math.floor(n / 60)
  const s = n - m * 60
  return `${m}m${s.toFixed(3)}s`
}

export interface NodeUtilsLogOptions {
  now: Date
  /** Seconds since the container started. */
  startedAgo: number
  chainID: string
  /** Seconds of periodic lines to emit before `now` (default 180). */
  window?: number
  /** 'on' (5.0.0 line), 'taken' (6666 busy), 'absent' (builds without profiling). */
  profiling?: 'on' | 'taken' | 'absent'
  syncing?: boolean
  /** BLOCK_THRESHOLD as node-utils prints it (e.g. `1m0s`); unset/0s = disabled. */
  blockThreshold?: string
  /** Height stuck at this value (not-syncing scenario). */
  frozenHeight?: number
  dataSizeBytes?: number
  /** TMKMS_PROXY=true: the proxy start line. */
  tmkmsProxy?: boolean
  extra?: LogLine[]
}

export function nodeUtilsLogs(o: NodeUtilsLogOptions): LogLine[] {
  const out: LogLine[] = []
  const start = new Date(o.now.getTime() - o.startedAgo * 1000)
  const at = (sec: number) => new Date(start.getTime() + sec * 1000)
  out.push(logrus(at(0), 'info', 'reloading upgrades config file'))
  if (o.tmkmsProxy) out.push(logrus(at(0.2), 'info', 'starting tcp proxy at :26659'))
  if (o.profiling === 'on') out.push(logrus(at(0.3), 'info', 'pprof listening on 127.0.0.1:6666'))
  if (o.profiling === 'taken') {
    out.push(logrus(at(0.3), 'warning', 'profiling disabled: listen tcp 127.0.0.1:6666: bind: address already in use'))
  }
  out.push(logrus(at(0.4), 'info', 'server started listening on 0.0.0.0:8000'))
  const window = o.window ?? 180
  const from = Math.max(1, o.startedAgo - window)
  const threshold = o.blockThreshold && o.blockThreshold !== '0s' ? o.blockThreshold : undefined
  const size = o.dataSizeBytes ?? 61_204_117_504
  for (let t = Math.ceil(from); t <= o.startedAgo; t++) {
    const d = at(t)
    const h = o.frozenHeight ?? chainHeight(o.chainID, d)
    if (t % 2 === 0) out.push(logrus(d, 'info', 'checked if should upgrade', { 'must-upgrade': false }))
    if (t % 10 === 3) {
      out.push(logrus(d, 'info', 'got syncing status', { syncing: !!o.syncing }))
      if (!o.syncing) {
        if (threshold) {
          const bt = o.frozenHeight ? new Date(d.getTime() - (t + 400) * 1000) : new Date(d.getTime() - 2100)
          const age = (d.getTime() - bt.getTime()) / 1000
          out.push(
            logrus(d, 'info', 'got latest block', {
              height: h,
              time: bt.toISOString(),
              threshold,
              age: secs(age),
            }),
          )
        }
        out.push(logrus(d, 'info', 'node is ready'))
      }
    }
    if (t % 30 === 7) out.push(logrus(d, 'info', 'node is healthy'))
    if (t % 15 === 11) {
      out.push(logrus(d, 'info', 'retrieved latest height', { height: h }))
      out.push(logrus(d, 'info', 'retrieved data size', { size: size + t * 4096 }))
    }
  }
  out.push(...(o.extra ?? []))
  return out.sort((a, b) => a.at.getTime() - b.at.getTime())
}

export interface CometLogOptions {
  now: Date
  startedAgo: number
  chainID: string
  nodeID: string
  version: string
  moniker: string
  window?: number
  outPeers?: number
  inPeers?: number
  persistentPeers?: string[]
  /** Stop after the startup lines (the node is stuck or crashed right after). */
  startupOnly?: boolean
  extra?: LogLine[]
}

export function cometStartup(o: CometLogOptions, startHeight: number): LogLine[] {
  const start = new Date(o.now.getTime() - o.startedAgo * 1000)
  const at = (sec: number) => new Date(start.getTime() + sec * 1000)
  const appHash = upperHex(`app/${o.chainID}/${startHeight}`)
  const lines = [
    comet(at(0.1), 'info', 'server', 'starting node with ABCI CometBFT in-process'),
    comet(at(0.2), 'info', 'proxy', 'service start', { impl: 'multiAppConn', msg: 'Starting multiAppConn service' }),
    comet(at(0.2), 'info', 'events', 'service start', { impl: 'EventBus', msg: 'Starting EventBus service' }),
    comet(at(1.4), 'info', 'consensus', 'ABCI Handshake App Info', {
      hash: appHash,
      height: startHeight,
      'protocol-version': 0,
      'software-version': o.version,
    }),
    comet(at(1.4), 'info', 'consensus', 'ABCI Replay Blocks', {
      appHeight: startHeight,
      stateHeight: startHeight,
      storeHeight: startHeight,
    }),
    comet(at(1.5), 'info', 'consensus', 'Completed ABCI Handshake - CometBFT and App are synced', {
      appHash,
      appHeight: startHeight,
    }),
    comet(at(1.5), 'info', 'main', 'Version info', {
      abci: '2.0.0',
      block: 11,
      cmtbft_version: '0.38.17',
      commit_hash: '',
      p2p: 8,
      tendermint_version: '0.38.17',
    }),
    comet(at(1.6), 'info', 'p2p', 'P2P Node ID', { ID: o.nodeID, file: '/home/app/config/node_key.json' }),
    comet(at(1.6), 'info', 'p2p', 'Adding persistent peers', { addrs: o.persistentPeers ?? [] }),
    comet(at(1.6), 'info', 'p2p', 'Adding unconditional peer ids', { ids: [] }),
    comet(at(1.7), 'info', 'p2p', 'Add our address to book', {
      addr: { id: o.nodeID, ip: '0.0.0.0', port: 26656 },
      book: '/home/app/data/addrbook.json',
    }),
    comet(at(1.8), 'info', 'server', 'service start', { impl: 'Node', msg: 'Starting Node service' }),
    comet(at(1.8), 'info', 'rpc-server', 'serve', { msg: 'Starting RPC HTTP server on [::]:26657' }),
    comet(at(1.9), 'info', 'p2p', 'service start', { impl: 'P2P Switch', msg: 'Starting P2P Switch service' }),
    comet(at(1.9), 'info', 'blocksync', 'service start', { impl: 'Reactor', msg: 'Starting Reactor service' }),
    comet(at(2.0), 'info', 'grpc-server', 'starting gRPC server...', { address: '0.0.0.0:9090' }),
    comet(at(2.1), 'info', 'api-server', 'starting API server...', { address: 'tcp://0.0.0.0:1317' }),
  ]
  return lines
}

export function cometLogs(o: CometLogOptions): LogLine[] {
  const start = new Date(o.now.getTime() - o.startedAgo * 1000)
  const out = cometStartup(o, chainHeight(o.chainID, start))
  if (!o.startupOnly) {
    const window = o.window ?? 180
    const fromT = Math.max(start.getTime() + 3000, o.now.getTime() - window * 1000)
    let h = chainHeight(o.chainID, new Date(fromT)) + 1
    for (;;) {
      const bt = blockTimeFor(o.chainID, h)
      if (bt.getTime() > o.now.getTime()) break
      const hash = upperHex(`block/${o.chainID}/${h}`)
      const app = upperHex(`app/${o.chainID}/${h}`)
      const t = (ms: number) => new Date(bt.getTime() + ms)
      out.push(
        comet(t(5), 'info', 'consensus', 'received complete proposal block', { hash, height: h }),
        comet(t(180), 'info', 'consensus', 'finalizing commit of block', {
          hash,
          height: h,
          num_txs: (h * 7) % 23,
          root: upperHex(`app/${o.chainID}/${h - 1}`),
        }),
        comet(t(260), 'info', 'state', 'finalized block', {
          block_app_hash: app,
          height: h,
          num_txs_res: (h * 7) % 23,
          num_val_updates: 0,
        }),
        comet(t(270), 'info', 'state', 'executed block', { app_hash: app, height: h }),
        comet(t(290), 'info', 'state', 'committed state', { block_app_hash: app, height: h }),
      )
      h++
    }
    for (let t = fromT + 7000; t <= o.now.getTime(); t += 30_000) {
      out.push(
        comet(new Date(t), 'info', 'p2p', 'Ensure peers', {
          numDialing: 0,
          numInPeers: o.inPeers ?? 12,
          numOutPeers: o.outPeers ?? 10,
          numToDial: 0,
        }),
      )
    }
  }
  out.push(...(o.extra ?? []))
  return out.sort((a, b) => a.at.getTime() - b.at.getTime())
}

function blockTimeFor(chainID: string, h: number): Date {
  return blockTime(chainID, h)
}
