/**
 * A real Cosmos SDK chain (the SDK's own simapp as `simd`, cosmos-sdk v0.50.3, built by scripts/build-tools.sh
 * from tools/simd) for the scenarios only an SDK app answers: the slashing window, staking, the upgrade plan,
 * governance. The equivalent of comet.ts: one genesis for every validator (gentxs collected), fast blocks, each
 * process's output stamped as a CRI log that kwok serves as the Pod's `app` log, its process group recorded in
 * <dir>/pids so the cluster's teardown ends it.
 *
 *   const homes = initSimd(dir, ['ns/val-0', 'ns/val-1'], { chainId: 'simchain-1', stakes: [40, 10] })
 *   const running = await startSimd(dir, homes[0], { peers })   // RPC on running.rpcPort
 *   await simdTx(dir, running, homes[0], ['gov', 'vote', '1', 'yes'])
 */
import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { clusterHandle } from './cluster.js'
import { cometStatus, freeLocalPort, spawnStamped, type CometHome, type RunningComet } from './comet.js'
import { sleep } from './kube.js'

const run = promisify(execFile)

export interface SimdHome extends CometHome {
  /** The validator's account key name in the home's test keyring, and its addresses. */
  keyName: string
  account: string
  valoper: string
}

export type RunningSimd = RunningComet & SimdHome

export interface SimdGenesis {
  /** x/slashing: blocks in the window, the fraction to sign, how long a downtime jail lasts. */
  signedBlocksWindow: number
  minSignedPerWindow: string
  downtimeJailDuration: string
  /** x/gov: the normal and the expedited voting periods. */
  votingPeriod: string
  expeditedVotingPeriod: string
}

export const DENOM = 'stake'

/** The simd binary of the cluster in `dir` (built next to cometbft). */
export function simdBinary(dir: string): string {
  const bin = process.env.CHAINNODE_SIMD_BIN ?? join(clusterHandle(dir).binDir, 'simd')
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run scripts/build-tools.sh`)
  return bin
}

const safe = (key: string) => key.replace(/[^a-z0-9-]/gi, '_')

/**
 * Homes with one genesis. The first `stakes.length` are validators bonding those stakes (in millions of stake);
 * the others (twins, full nodes) only share the genesis. The genesis gets the short slashing window and voting
 * periods the scenarios need.
 */
export function initSimd(dir: string, keys: string[], options: { chainId: string; stakes: number[]; genesis: SimdGenesis }): SimdHome[] {
  const bin = simdBinary(dir)
  const sh = (args: string[], home: string) => {
    try {
      return execFileSync(bin, [...args, '--home', home], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    } catch (error) {
      const said = String((error as { stderr?: string }).stderr ?? '')
        .trim()
        .split('\n')
        .at(-1)
      throw new Error(`simd ${args.slice(0, 3).join(' ')}: ${said}`)
    }
  }
  const homes = keys.map((key, i) => {
    const home = join(dir, 'simd', safe(key))
    rmSync(home, { recursive: true, force: true })
    mkdirSync(home, { recursive: true })
    sh(['init', safe(key).slice(-20), '--chain-id', options.chainId], home)
    const keyName = `val${i}`
    sh(['keys', 'add', keyName, '--keyring-backend', 'test', '--output', 'json'], home)
    const account = sh(['keys', 'show', keyName, '-a', '--keyring-backend', 'test'], home).trim()
    const valoper = sh(['keys', 'show', keyName, '-a', '--bech', 'val', '--keyring-backend', 'test'], home).trim()
    tuneConfig(home)
    const pv = JSON.parse(readFileSync(join(home, 'config', 'priv_validator_key.json'), 'utf8')) as { address: string; pub_key: unknown }
    const nodeId = sh(['comet', 'show-node-id'], home).trim()
    return { key, home, nodeId, validator: { address: pv.address, pub_key: pv.pub_key }, logFormat: 'plain' as const, keyName, account, valoper }
  })
  const first = homes[0].home
  for (const h of homes) sh(['genesis', 'add-genesis-account', h.account, `1000000000000${DENOM}`], first)
  const genesisFile = join(first, 'config', 'genesis.json')
  const genesis = JSON.parse(readFileSync(genesisFile, 'utf8')) as { app_state: Record<string, { params: Record<string, unknown> }> }
  const { slashing, gov, staking } = genesis.app_state
  Object.assign(slashing.params, {
    signed_blocks_window: String(options.genesis.signedBlocksWindow),
    min_signed_per_window: options.genesis.minSignedPerWindow,
    downtime_jail_duration: options.genesis.downtimeJailDuration,
  })
  Object.assign(gov.params, {
    voting_period: options.genesis.votingPeriod,
    expedited_voting_period: options.genesis.expeditedVotingPeriod,
    min_deposit: [{ denom: DENOM, amount: '10' }],
    expedited_min_deposit: [{ denom: DENOM, amount: '20' }],
  })
  staking.params.bond_denom = DENOM
  writeFileSync(genesisFile, JSON.stringify(genesis, null, 2))
  const gentxDir = join(first, 'config', 'gentx')
  mkdirSync(gentxDir, { recursive: true })
  options.stakes.forEach((stake, i) => {
    const h = homes[i]
    if (i > 0) copyFileSync(genesisFile, join(h.home, 'config', 'genesis.json'))
    const out = join(gentxDir, `gentx-${i}.json`)
    sh(['genesis', 'gentx', h.keyName, `${stake}000000${DENOM}`, '--chain-id', options.chainId, '--keyring-backend', 'test', '--output-document', out], h.home)
  })
  sh(['genesis', 'collect-gentxs', '--gentx-dir', gentxDir], first)
  for (const h of homes.slice(1)) copyFileSync(genesisFile, join(h.home, 'config', 'genesis.json'))
  return homes
}

function tuneConfig(home: string): void {
  const configPath = join(home, 'config', 'config.toml')
  writeFileSync(
    configPath,
    readFileSync(configPath, 'utf8')
      .replace(/^timeout_commit = .*$/m, 'timeout_commit = "1s"')
      .replace(/^timeout_propose = .*$/m, 'timeout_propose = "2s"')
      .replace(/^addr_book_strict = .*$/m, 'addr_book_strict = false')
      .replace(/^allow_duplicate_ip = .*$/m, 'allow_duplicate_ip = true')
      .replace(/^pprof_laddr = .*$/m, 'pprof_laddr = ""')
      .replace(/^log_level = .*$/m, 'log_level = "info"'),
  )
  const appPath = join(home, 'config', 'app.toml')
  writeFileSync(
    appPath,
    readFileSync(appPath, 'utf8')
      .replace(/^minimum-gas-prices = .*$/m, `minimum-gas-prices = "0${DENOM}"`)
      // Neither gRPC nor REST: everything the CLI reads goes through the CometBFT RPC, as on a locked-down node.
      .replace(/(\[grpc\][^[]*?)enable = true/, '$1enable = false')
      .replace(/(\[api\][^[]*?)enable = true/, '$1enable = false'),
  )
}

/** Start a node with these persistent peers (id@host:port); its RPC and P2P on free loopback ports. */
export async function startSimd(dir: string, home: SimdHome, options: { peers?: string[]; p2pPort?: number } = {}): Promise<RunningSimd> {
  const bin = simdBinary(dir)
  const rpcPort = await freeLocalPort()
  const p2pPort = options.p2pPort ?? (await freeLocalPort())
  const logFile = join(dir, 'simd', `${safe(home.key)}.cri.log`)
  const args = [
    'start',
    '--home',
    home.home,
    `--rpc.laddr=tcp://127.0.0.1:${rpcPort}`,
    `--p2p.laddr=tcp://127.0.0.1:${p2pPort}`,
    `--p2p.persistent_peers=${(options.peers ?? []).join(',')}`,
    `--grpc.enable=false`,
    `--api.enable=false`,
  ]
  const pid = spawnStamped(dir, `simd-${safe(home.key)}`, bin, args, logFile)
  const running: RunningSimd = { ...home, rpcPort, p2pPort, pid, logFile }
  const deadline = Date.now() + 90_000
  for (;;) {
    if (
      await cometStatus(running).then(
        () => true,
        () => false,
      )
    )
      return running
    if (Date.now() > deadline) throw new Error(`simd ${home.key}: RPC on ${rpcPort} not up; log ${logFile}`)
    await sleep(200)
  }
}

/** Kill a node's process group: it stops signing; its log file stays. */
export function stopSimd(dir: string, node: RunningSimd): void {
  try {
    process.kill(-node.pid, 'SIGKILL')
  } catch {
    /* already gone */
  }
  rmSync(join(dir, 'pids', `simd-${safe(node.key)}.pid`), { force: true })
}

/** `simd query ... -o json` against a running node. */
export async function simdQuery(dir: string, node: { rpcPort: number }, args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(simdBinary(dir), ['query', ...args, '--node', `tcp://127.0.0.1:${node.rpcPort}`, '-o', 'json'], { timeout: 20_000 })
  return JSON.parse(stdout) as Record<string, unknown>
}

/** Sign and broadcast a transaction from a home's key, and wait until a block includes it (its code must be 0). */
export async function simdTx(dir: string, node: { rpcPort: number }, from: SimdHome, args: string[], chainId: string): Promise<void> {
  const common = ['--node', `tcp://127.0.0.1:${node.rpcPort}`, '--home', from.home, '--keyring-backend', 'test', '--chain-id', chainId]
  const { stdout } = await run(simdBinary(dir), ['tx', ...args, '--from', from.keyName, '--gas', '800000', '--yes', '-o', 'json', ...common], {
    timeout: 30_000,
  })
  const sent = JSON.parse(stdout) as { txhash: string; code: number; raw_log?: string }
  if (sent.code !== 0) throw new Error(`simd tx ${args.join(' ')}: code ${sent.code}: ${sent.raw_log}`)
  const deadline = Date.now() + 30_000
  for (;;) {
    const found = await run(simdBinary(dir), ['query', 'tx', sent.txhash, '--node', `tcp://127.0.0.1:${node.rpcPort}`, '-o', 'json'], { timeout: 10_000 }).then(
      (r) => JSON.parse(r.stdout) as { code: number; raw_log?: string },
      () => undefined,
    )
    if (found) {
      if (found.code !== 0) throw new Error(`simd tx ${args.join(' ')} failed in block: code ${found.code}: ${found.raw_log}`)
      return
    }
    if (Date.now() > deadline) throw new Error(`simd tx ${args.join(' ')}: ${sent.txhash} not in a block after 30s`)
    await sleep(500)
  }
}

/** A home for a second process with another home's validator key: both sign as one validator (a double sign). */
export function twinOf(validator: SimdHome, spare: SimdHome): SimdHome {
  copyFileSync(join(validator.home, 'config', 'priv_validator_key.json'), join(spare.home, 'config', 'priv_validator_key.json'))
  return { ...spare, validator: validator.validator }
}

/** The gov module's account, the authority of a MsgSoftwareUpgrade. */
export async function govAuthority(dir: string, node: { rpcPort: number }): Promise<string> {
  const answer = await simdQuery(dir, node, ['auth', 'module-account', 'gov'])
  const account = (answer.account ?? {}) as { value?: { address?: string }; base_account?: { address?: string } }
  const address = account.value?.address ?? account.base_account?.address ?? JSON.stringify(answer).match(/"(cosmos1[0-9a-z]{38})"/)?.[1]
  if (!address) throw new Error(`no gov module address in ${JSON.stringify(answer).slice(0, 300)}`)
  return address
}

/** Write a gov v1 proposal file in the node's home; returns its path. */
export function proposalFile(home: SimdHome, name: string, proposal: Record<string, unknown>): string {
  const file = join(home.home, `${name}.json`)
  writeFileSync(file, JSON.stringify(proposal, null, 2))
  return file
}

export const simdPeer = (node: RunningSimd) => `${node.nodeId}@127.0.0.1:${node.p2pPort}`

/** Every running simd process of the cluster in `dir` that a scenario started (for a test that re-seeds). */
export function recordedSimds(dir: string): string[] {
  const pids = join(dir, 'pids')
  return existsSync(pids) ? readdirSync(pids).filter((f) => f.startsWith('simd-')) : []
}
