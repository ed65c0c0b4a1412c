import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './cli.js'

/**
 * What a real CometBFT v0.38 chain of four validators answered (test/fixtures/chain-commits/record.ts):
 * genesis keys, val-3's replacement key, /status of val-0 and val-3, /validators and ten /commit results.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const fourValidators = JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'chain-commits', 'four-validators.json'), 'utf8')) as any

/** The operator's .status.pubKey form of a CometBFT JSON key. */
export const operatorPubKey = (key: { value: string }) => JSON.stringify({ '@type': '/cosmos.crypto.ed25519.PubKey', key: key.value })
