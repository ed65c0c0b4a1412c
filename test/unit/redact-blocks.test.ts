import { describe, expect, it } from 'vitest'
import { formatLines, tailOf, type LogQuery } from '../../src/app/logs.js'
import { MASK, Redactor, redactSnapshot } from '../../src/snapshot/redact.js'
import { smallSnapshot } from '../helpers/hostile.js'

/**
 * A secret spread over lines must be masked whatever cuts the lines: --tail (the API server cuts before we
 * read), -f (lines arrive one by one), collect --tail (the bundle keeps the cut text).
 */
const BODY = [
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
  'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3Bx',
  'cnN0dXZ3eHl6QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=',
]
const PEM = ['-----BEGIN RSA PRIVATE KEY-----', ...BODY, '-----END RSA PRIVATE KEY-----']
const LOG = ['starting node', 'cat /secrets/key.pem', ...PEM, 'node started height=1024']
const STAMPED = LOG.map((line, i) => `2026-11-22T10:00:0${i}.123456789Z ${line}`)

const PRIV_SECRET = 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2Vj'
const PUB = 'cHViY2hlY2twdWJjaGVja3B1YmNoZWNrcHViY2hlY2s='
/** `cat priv_validator_key.json` in a container's log, as CometBFT writes the file. */
const KEY_FILE = [
  '{',
  '  "address": "A1B2C3D4E5F6",',
  '  "pub_key": {',
  '    "type": "tendermint/PubKeyEd25519",',
  `    "value": "${PUB}"`,
  '  },',
  '  "priv_key": {',
  '    "type": "tendermint/PrivKeyEd25519",',
  `    "value": "${PRIV_SECRET}"`,
  '  }',
  '}',
  'node started',
]

const leaks = (text: string, secrets: string[]) => secrets.filter((secret) => text.includes(secret))
const query: LogQuery = { previous: false, prefix: false, redact: true }
const source = { namespace: 'ns', pod: 'p', container: 'app', label: 'app' }

describe('masking of multi-line blocks, wherever the lines are cut', () => {
  it.each([0, 1, 2, 3, 4, 5, 6])('a PEM key in a log cut after %i lines (logs --tail) leaks no body line', (cut) => {
    for (const log of [LOG, STAMPED]) {
      const shown = new Redactor().text(log.slice(cut).join('\n'))
      expect(leaks(shown, BODY)).toEqual([])
      expect(shown).toContain('node started height=1024')
    }
  })

  it('a PEM key whose END was cut off masks its body to the end of the text', () => {
    const shown = new Redactor().text(LOG.slice(0, 4).join('\n'))
    expect(leaks(shown, BODY)).toEqual([])
    expect(shown).toContain('cat /secrets/key.pem')
  })

  it('a PEM key followed line by line (logs -f) leaks no body line; the lines after it print', () => {
    for (const log of [LOG, STAMPED]) {
      const mask = new Redactor().stream()
      const shown = log.map((line) => mask(line))
      expect(leaks(shown.join('\n'), BODY)).toEqual([])
      expect(shown.at(-1)).toContain('node started height=1024')
      expect(shown).toHaveLength(log.length)
    }
  })

  it('a PEM key followed in chunks of whole lines, cut anywhere, leaks no body line', () => {
    for (let size = 1; size <= 4; size++)
      for (let offset = 0; offset < size; offset++) {
        const mask = new Redactor().stream()
        const chunks = [
          STAMPED.slice(0, offset),
          ...Array.from({ length: Math.ceil(STAMPED.length / size) }, (_, i) => STAMPED.slice(offset + i * size, offset + (i + 1) * size)),
        ]
        const shown = chunks.filter((chunk) => chunk.length).map((chunk) => mask(chunk.join('\n')))
        expect(leaks(shown.join('\n'), BODY)).toEqual([])
        expect(shown.join('\n')).toContain('node started height=1024')
      }
  })

  it('a cat-ed priv_validator_key.json followed line by line (logs -f) hides the private key, not the rest', () => {
    const mask = new Redactor().stream()
    const shown = KEY_FILE.map((line) => mask(line)).join('\n')
    expect(shown).not.toContain(PRIV_SECRET)
    expect(shown).toContain(PUB)
    expect(shown).toContain('node started')
    expect(shown).toContain(MASK)
  })

  it.each(KEY_FILE.map((_line, i) => [i]))('the key file cut after %i lines (logs --tail, collect --tail) hides the private key', (cut) => {
    const shown = new Redactor().text(KEY_FILE.slice(cut).join('\n'))
    expect(shown).not.toContain(PRIV_SECRET)
    expect(shown).toContain('node started')
  })

  it('formatLines with --tail and a followed log through app/logs.ts', () => {
    const tailed = tailOf(formatLines(LOG.slice(3).join('\n'), source, query), 3)
    expect(leaks(tailed.join('\n'), BODY)).toEqual([])
    const mask = new Redactor().stream()
    const followed = LOG.flatMap((line) => formatLines(line, source, query, mask))
    expect(leaks(followed.join('\n'), BODY)).toEqual([])
  })

  it('a bundle whose log starts inside a PEM body (collect --tail) is masked when read', () => {
    const snapshot = smallSnapshot()
    snapshot.logs[0].text = STAMPED.slice(4).join('\n')
    const redacted = redactSnapshot(snapshot)
    expect(leaks(redacted.logs[0].text, BODY)).toEqual([])
  })
})

describe('passwords in URLs', () => {
  it.each([
    ['a state-sync override', 'statesync.rpc_servers = "https://user:s3cr3tpw@rpc.example.com:443,https://other:pw2@rpc2.example.com"', ['s3cr3tpw', 'pw2']],
    ['a database URL', 'connecting to postgres://indexer:hunter2@db:5432/chain', ['hunter2']],
    ['TOML in a ConfigMap', '[statesync]\nenable = true\nrpc_servers = "https://u:p@a.example:443"\n', [':p@']],
  ])('%s: the password is masked, the user and host stay', (_name, text, secrets) => {
    const shown = new Redactor().text(text)
    expect(leaks(shown, secrets)).toEqual([])
    expect(shown).toContain(`:${MASK}@`)
  })

  it('leaves URLs without a password alone', () => {
    for (const text of ['https://rpc.example.com:443/status', 'git@github.com:org/repo.git', 'https://user@host.example/path'])
      expect(new Redactor().text(text)).toBe(text)
  })

  it('masks a URL password in a ChainNode spec and a ConfigMap value', () => {
    const redactor = new Redactor()
    const node = { spec: { config: { override: { 'config.toml': { statesync: { rpc_servers: 'https://user:pw1234@rpc.example:443' } } } } } }
    const out = redactor.value(node)
    expect(JSON.stringify(out)).not.toContain('pw1234')
    expect(JSON.stringify(out)).toContain('https://user:')
  })
})
