// Redaction against input size: each adversarial log of issue 31 at 1, 10 and 100 MB, timed against a peer
// pass over the same text in the same process (a case-insensitive indexOf of every marker, which any
// masking must at least do). Linear redaction keeps the ratio to the peer flat as the size grows ten-fold;
// a backtracking pattern makes it grow ten-fold.
//
//   npx tsx bench/redact.ts [sizes in MB, default 1 10 100]
import { Redactor } from '../src/snapshot/redact.js'

const MB = 1_000_000

/** Lines repeated up to `bytes`: what an attacker puts in a log to make the masking backtrack. */
const repeated = (line: string, bytes: number) => line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes)

const CASES: [string, (bytes: number) => string][] = [
  ['unclosed "priv_key": {', (n) => repeated('{"msg":"x","priv_key": {"type":"t",\n', n)],
  ['unmatched PEM BEGIN lines', (n) => repeated('-----BEGIN RSA PRIVATE KEY-----\nnot base64 here!\n', n)],
  ['token= keys without values', (n) => repeated('token=a authtoken: b secret=c ', n)],
  ['one long word of token', (n) => repeated('tokentoken', n)],
  ['eyJ- runs (JWT look-alikes)', (n) => repeated('eyJ-eyJabc-', n)],
  ['lowercase words (seed-phrase scan)', (n) => repeated('alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike ', n)],
  ['BIP-39 words (one endless phrase)', (n) => repeated('abandon ability able about above absent absorb abstract ', n)],
  ['hvs. and a 100 MB run', (n) => `hvs.${repeated('a-', n)}`],
  ['URL userinfo look-alikes', (n) => repeated('https://u:u:u:u:u:u:u:u:u:u ', n)],
  ['an ordinary CometBFT log', (n) => repeated('I[2026-11-22|10:00:00.000] committed state module=state height=1024 num_txs=0 app_hash=ABCDEF0123\n', n)],
]

const MARKERS = ['private key-----', '"priv_key"', 'hv', 'eyj', 'bearer', 'basic', 'akia', '://', 'token', 'secret', 'passw', 'mnemonic']

function peer(text: string): number {
  const lower = text.toLowerCase()
  let found = 0
  for (const marker of MARKERS) for (let at = lower.indexOf(marker); at !== -1; at = lower.indexOf(marker, at + 1)) found++
  return found
}

function best(run: () => unknown, times: number): number {
  let fastest = Infinity
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    run()
    fastest = Math.min(fastest, performance.now() - started)
  }
  return fastest
}

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0)
console.log('case | MB | redact ms | peer ms | ratio to peer | MB/s')
for (const [name, make] of CASES) {
  for (const size of sizes.length ? sizes : [1, 10, 100]) {
    const text = make(size * MB)
    const times = size >= 100 ? 1 : 3
    const ms = best(() => new Redactor().text(text), times)
    const peerMs = best(() => peer(text), times)
    console.log(`${name} | ${size} | ${ms.toFixed(0)} | ${peerMs.toFixed(0)} | ${(ms / peerMs).toFixed(2)} | ${((size * MB) / 1e6 / (ms / 1000)).toFixed(0)}`)
  }
}
