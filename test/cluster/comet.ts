/**
 * Real CometBFT nodes (v0.38, built by scripts/build-tools.sh) for the chain-probe scenarios:
 * `cometbft init`, a shared genesis, `cometbft start --proxy_app=kvstore`, with fast blocks.
 *
 *   const [a] = await initComet(dir, ['ns/val-0'], { chainId: 'chain-1' })
 *   const running = await startComet(dir, a)          // RPC on running.rpcPort, log in CRI format
 *   await waitForHeight(running, 3)
 *   await stopComet(dir, running)                     // the node "dies"; its log file stays
 *
 * Each node runs as `/bin/sh -c 'cometbft start … 2>&1 | perl …'` in its own process group, the
 * perl stage stamping every line in the CRI format kwok serves as `kubectl logs` (so the Pod's
 * `app` log is the process's real output). The group's pid goes to <dir>/pids like the cluster's own
 * components, so stopCluster and killClusterSync end it.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { clusterHandle } from './cluster.js'
import { sleep } from './kube.js'

export interface CometHome {
  /** namespace/pod the node stands behind. */
  key: string
  home: string
  nodeId: string
  validator: { address: string; pub_key: unknown }
  logFormat: 'plain' | 'json'
}

export interface RunningComet extends CometHome {
  rpcPort: number
  p2pPort: number
  pid: number
  /** CRI-format log of the process, what kwok serves as the Pod's `app` log. */
  logFile: string
}

/** The cometbft binary of the cluster in `dir` (built next to kube-apiserver). */
export function cometBinary(dir: string): string {
  // A recorder run outside a test cluster (test/fixtures/chain-commits/record.ts) names the binary itself.
  const bin = process.env.CHAINNODE_COMETBFT_BIN ?? join(clusterHandle(dir).binDir, 'cometbft')
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run scripts/build-tools.sh`)
  return bin
}

const safe = (key: string) => key.replace(/[^a-z0-9-]/gi, '_')

/**
 * Initialise homes with one genesis; the first `validators` of them hold equal voting power.
 * Fast blocks: a short timeout_commit and short consensus timeouts.
 */
export function initComet(
  dir: string,
  keys: string[],
  options: { chainId: string; validators?: number; logFormat?: (key: string) => 'plain' | 'json'; timeoutCommit?: string },
): CometHome[] {
  const bin = cometBinary(dir)
  const homes = keys.map((key) => {
    // A re-seed replaces the node: its earlier process must not outlive its home.
    killRecorded(dir, key)
    const home = join(dir, 'comet', safe(key))
    rmSync(home, { recursive: true, force: true })
    // Its log too: startComet appends, and a new chain's heights after the old one's would read as one log.
    rmSync(`${home}.cri.log`, { force: true })
    mkdirSync(home, { recursive: true })
    execFileSync(bin, ['init', '--home', home], { stdio: 'ignore' })
    const logFormat = options.logFormat?.(key) ?? 'plain'
    const configPath = join(home, 'config', 'config.toml')
    const config = readFileSync(configPath, 'utf8')
      .replace(/^log_format = .*$/m, `log_format = "${logFormat}"`)
      .replace(/^timeout_propose = .*$/m, 'timeout_propose = "1s"')
      .replace(/^timeout_commit = .*$/m, `timeout_commit = "${options.timeoutCommit ?? '300ms'}"`)
      .replace(/^addr_book_strict = .*$/m, 'addr_book_strict = false')
      .replace(/^allow_duplicate_ip = .*$/m, 'allow_duplicate_ip = true')
    writeFileSync(configPath, config)
    const key_ = JSON.parse(readFileSync(join(home, 'config', 'priv_validator_key.json'), 'utf8')) as { address: string; pub_key: unknown }
    const nodeId = execFileSync(bin, ['show-node-id', '--home', home], { encoding: 'utf8' }).trim()
    return { key, home, nodeId, validator: { address: key_.address, pub_key: key_.pub_key }, logFormat }
  })
  const genesis = JSON.parse(readFileSync(join(homes[0].home, 'config', 'genesis.json'), 'utf8')) as Record<string, unknown>
  genesis.chain_id = options.chainId
  genesis.validators = homes.slice(0, options.validators ?? 1).map((h) => ({ ...h.validator, power: '10', name: h.key }))
  for (const h of homes) writeFileSync(join(h.home, 'config', 'genesis.json'), JSON.stringify(genesis, null, 2))
  return homes
}

/** Ports this process handed out: never twice, even before the node that got one has bound it. */
const handedOut = new Set<number>()
// Below the kernel's ephemeral range (32768 and up by default). A port taken from that range (listen on 0) is free only
// until some outgoing connection is given it as its local port: seen when a validator's p2p port, picked before its
// peers started dialling each other, was taken by the time the node bound it ("bind: address already in use").
const LOW_PORT = 20_000
const HIGH_PORT = 32_000

export async function freeLocalPort(): Promise<number> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const port = LOW_PORT + Math.floor(Math.random() * (HIGH_PORT - LOW_PORT))
    if (handedOut.has(port) || !(await canListen(port))) continue
    handedOut.add(port)
    return port
  }
  throw new Error(`no free local port between ${LOW_PORT} and ${HIGH_PORT}`)
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer()
    srv.once('error', () => resolve(false))
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)))
  })
}

const CRI_STAMP = String.raw`use Time::HiRes qw(time); use POSIX qw(strftime); open(my $o, ">>", $ARGV[0]) or die $!; select($o); $| = 1; while (my $l = <STDIN>) { chomp $l; my $t = time; printf "%s.%09dZ stdout F %s\n", strftime("%Y-%m-%dT%H:%M:%S", gmtime($t)), ($t - int($t)) * 1e9, $l }`

/**
 * Run `bin args` in its own process group, its output stamped line by line in the CRI format into `logFile` (what
 * kwok serves as the Pod's log); the group's pid is recorded as <dir>/pids/<name>.pid so the cluster's teardown ends it.
 */
export function spawnStamped(dir: string, name: string, bin: string, args: string[], logFile: string): number {
  const script = `"$0" "$@" 2>&1 | perl -e '${CRI_STAMP}' '${logFile}'`
  const child = spawn('/bin/sh', ['-c', script, bin, ...args], { cwd: dir, detached: true, stdio: 'ignore' })
  if (child.pid === undefined) throw new Error(`could not start ${bin} (${name})`)
  child.unref()
  mkdirSync(join(dir, 'pids'), { recursive: true })
  writeFileSync(join(dir, 'pids', `${name}.pid`), `${child.pid}\n/bin/sh\n`)
  return child.pid
}

/** Start a node; `peers` are persistent peers, `seeds` seed addresses (id@host:port). */
export async function startComet(dir: string, home: CometHome, options: { peers?: string[]; seeds?: string[]; p2pPort?: number } = {}): Promise<RunningComet> {
  const bin = cometBinary(dir)
  const rpcPort = await freeLocalPort()
  const p2pPort = options.p2pPort ?? (await freeLocalPort())
  const logFile = join(dir, 'comet', `${safe(home.key)}.cri.log`)
  const args = [
    'start',
    '--home',
    home.home,
    '--proxy_app=kvstore',
    `--rpc.laddr=tcp://127.0.0.1:${rpcPort}`,
    `--p2p.laddr=tcp://127.0.0.1:${p2pPort}`,
    `--p2p.persistent_peers=${(options.peers ?? []).join(',')}`,
    `--p2p.seeds=${(options.seeds ?? []).join(',')}`,
  ]
  const pid = spawnStamped(dir, `comet-${safe(home.key)}`, bin, args, logFile)
  const running = { ...home, rpcPort, p2pPort, pid, logFile }
  await waitForRpc(running)
  return running
}

export async function cometStatus(node: { rpcPort: number }): Promise<{ height: number; time: string; peers: number }> {
  const [status, netInfo] = await Promise.all(
    ['status', 'net_info'].map(async (path) => {
      const res = await fetch(`http://127.0.0.1:${node.rpcPort}/${path}`, { signal: AbortSignal.timeout(2000) })
      return ((await res.json()) as { result: Record<string, Record<string, string>> }).result
    }),
  )
  return { height: Number(status.sync_info.latest_block_height), time: status.sync_info.latest_block_time, peers: Number(netInfo.n_peers) }
}

async function waitForRpc(node: RunningComet): Promise<void> {
  // Every chain scenario starts its nodes at once (eleven processes): on a busy 2-core machine a start takes long.
  const deadline = Date.now() + 60_000
  for (;;) {
    try {
      await cometStatus(node)
      return
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`cometbft ${node.key}: RPC on ${node.rpcPort} not up: ${(error as Error).message}; log ${node.logFile}`)
      await sleep(100)
    }
  }
}

export async function waitForComet(
  node: RunningComet,
  what: string,
  test: (s: Awaited<ReturnType<typeof cometStatus>>) => boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await cometStatus(node).catch(() => undefined)
    if (status && test(status)) return
    if (Date.now() > deadline) throw new Error(`cometbft ${node.key}: ${what} not reached (last ${JSON.stringify(status)}); log ${node.logFile}`)
    await sleep(150)
  }
}

/** Kill a node's process group: its RPC stops answering, its log file stays. */
export async function stopComet(dir: string, node: RunningComet): Promise<void> {
  try {
    process.kill(-node.pid, 'SIGKILL')
  } catch {
    /* already gone */
  }
  rmSync(join(dir, 'pids', `comet-${safe(node.key)}.pid`), { force: true })
  for (let i = 0; i < 50; i++) {
    if (
      !(await cometStatus(node)
        .then(() => true)
        .catch(() => false))
    )
      return
    await sleep(100)
  }
  // A scenario that stops a node to break its chain must not go on with the node alive.
  throw new Error(`cometbft ${node.key}: its RPC on ${node.rpcPort} still answers 5 s after SIGKILL of process group ${node.pid}`)
}

function killRecorded(dir: string, key: string): void {
  const pidFile = join(dir, 'pids', `comet-${safe(key)}.pid`)
  if (!existsSync(pidFile)) return
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0])
  try {
    if (pid > 1) process.kill(-pid, 'SIGKILL')
  } catch {
    /* already gone */
  }
  rmSync(pidFile, { force: true })
}

/**
 * Give a home a fresh priv_validator_key that is not in the genesis: its process runs and votes with a
 * key the chain does not know, so its genesis validator misses every block. Returns the new key.
 */
export function replaceValidatorKey(dir: string, home: CometHome): CometHome['validator'] {
  const scratch = join(dir, 'comet', `${safe(home.key)}.newkey`)
  rmSync(scratch, { recursive: true, force: true })
  execFileSync(cometBinary(dir), ['init', '--home', scratch], { stdio: 'ignore' })
  const keyFile = readFileSync(join(scratch, 'config', 'priv_validator_key.json'), 'utf8')
  writeFileSync(join(home.home, 'config', 'priv_validator_key.json'), keyFile)
  rmSync(scratch, { recursive: true, force: true })
  const key = JSON.parse(keyFile) as CometHome['validator']
  return { address: key.address, pub_key: key.pub_key }
}

/** Copy one home's validator key into another: two processes present the same validator. */
export function shareValidatorKey(from: CometHome, to: CometHome): void {
  writeFileSync(join(to.home, 'config', 'priv_validator_key.json'), readFileSync(join(from.home, 'config', 'priv_validator_key.json')))
}

export const peerAddress = (node: RunningComet) => `${node.nodeId}@127.0.0.1:${node.p2pPort}`
