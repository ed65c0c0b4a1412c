import { describe, expect, it } from 'vitest'
import { MASK, Redactor, redactSnapshot } from '../../src/snapshot/redact.js'
import type { Snapshot } from '../../src/snapshot/types.js'

/** Secrets of the shapes an operator cluster leaks: each must vanish; the surrounding text must stay readable. */
const PLANTED: [string, string, string][] = [
  ['vault service token', 'vault login ok token=hvs.CAESIJ8x1Fq2ZbYtQ9r0uVwXyZaBcDeFgHiJ', 'hvs.CAESIJ8x1Fq2ZbYtQ9r0uVwXyZaBcDeFgHiJ'],
  ['vault batch token', 'using hvb.AAAAAQJ2k3lRmF9sZxYwVuTsRqPoNmLkJiHgFe for renewal', 'hvb.AAAAAQJ2k3lRmF9sZxYwVuTsRqPoNmLkJiHgFe'],
  ['legacy vault token', 'VAULT_TOKEN was s.Xk29dLmQpR7tYwZ3aBcDeF4g', 's.Xk29dLmQpR7tYwZ3aBcDeF4g'],
  [
    'jwt',
    'authorization eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJlX2hlcmU in header',
    'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJlX2hlcmU',
  ],
  ['bearer', 'GET /v1/sys -H "Authorization: Bearer abcdef0123456789xyz"', 'abcdef0123456789xyz'],
  ['pem key', 'key:\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBvq3c0ffee\n-----END EC PRIVATE KEY-----\nend', 'MHcCAQEEIBvq3c0ffee'],
  [
    'validator key json',
    '{"address":"A1B2","pub_key":{"type":"tendermint/PubKeyEd25519","value":"cHViCg=="},"priv_key":{"type":"tendermint/PrivKeyEd25519","value":"c2VjcmV0c2VjcmV0c2VjcmV0"}}',
    'c2VjcmV0c2VjcmV0c2VjcmV0',
  ],
  [
    '12-word mnemonic',
    'imported mnemonic: wrist wait whip bronze gallery cotton glow awkward wife shift river quiz',
    'wrist wait whip bronze gallery cotton glow awkward wife shift river quiz',
  ],
  [
    '24-word mnemonic',
    'seed abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual',
    'abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual',
  ],
  ['password assignment', 'db password=Sup3rS3cretValue connected', 'Sup3rS3cretValue'],
  // A key with a prefix: the prefix stays readable, the value goes.
  ['prefixed key in JSON', '{"level":"info","authToken":"a1b2c3d4e5f6g7h8","msg":"login"}', 'a1b2c3d4e5f6g7h8'],
  ['prefixed key with underscore', 'config db_password: Tr0ub4dor&3horse loaded', 'Tr0ub4dor'],
  [
    'mnemonic inside a longer line',
    '2026-11-22T10:00:00Z INFO restored wallet from abandon ability able about above absent absorb abstract absurd abuse access accident (24 words elided)',
    'abandon ability able about above absent absorb abstract absurd abuse access accident',
  ],
]

describe('redaction', () => {
  it.each(PLANTED)('masks a %s in free text', (_name, text, secret) => {
    const redactor = new Redactor()
    const out = redactor.text(text)
    expect(out).not.toContain(secret)
    expect(out).toContain(MASK)
    expect(redactor.count).toBeGreaterThan(0)
  })

  describe('where a seed phrase starts and ends', () => {
    const twelve = 'wrist wait whip bronze gallery cotton glow awkward wife shift river quiz'
    const words = twelve.split(' ')
    const masked = (text: string) => new Redactor().text(text)
    it('masks twelve words apart by up to 64 blanks or tabs, not by 65', () => {
      expect(masked(words.join(' '.repeat(64)))).toBe(MASK)
      expect(masked(words.join('\t \t'))).toBe(MASK)
      const wide = words.slice(0, 6).join(' ') + ' '.repeat(65) + words.slice(6).join(' ')
      expect(masked(wide)).toBe(wide)
    })
    it('ends a phrase at a word that is not shaped like one (too short, too long, capitalised, digits) and masks the longer side', () => {
      for (const breaker of ['ox', 'abandoned', 'Wrist', 'w1st', 'wrist,']) {
        const text = `${words.slice(0, 5).join(' ')} ${breaker} ${twelve}`
        expect(masked(text), breaker).toBe(`${words.slice(0, 5).join(' ')} ${breaker} ${MASK}`)
      }
    })
    it('takes the whole run of lowercase letters as one word: a word inside a longer one does not start a phrase', () => {
      expect(masked(`x${twelve}`)).toBe(`x${twelve}`)
      expect(masked(`X${twelve}`)).toBe(`X${MASK}`)
      expect(masked(`${twelve}s`)).toBe(`${twelve}s`)
      expect(masked(`${twelve}S`)).toBe(`${MASK}S`)
    })
    it('masks only the stretch of word-list words inside a longer run of word-shaped ones', () => {
      const text = `qqq zzzz xyz ${twelve} zzzz qqq`
      expect(masked(text)).toBe(`qqq zzzz xyz ${MASK} zzzz qqq`)
    })
  })

  it('leaves ordinary log lines, public keys and short prose alone', () => {
    const redactor = new Redactor()
    const lines = [
      'time="2026-11-22T10:00:00Z" level=warning msg="failed to renew token: permission denied"',
      '{"level":"info","msg":"Ensure peers","numOutPeers":0,"height":1024}',
      'the node is about to start after all the blocks arrive',
      'pub_key {"type":"tendermint/PubKeyEd25519","value":"cHViCg=="}',
    ]
    for (const line of lines) expect(redactor.text(line)).toBe(line)
    expect(redactor.count).toBe(0)
  })

  it('masks sensitive env values and annotation values in objects, and counts them', () => {
    const snapshot = {
      objects: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', annotations: { 'vault.example/token': 'abc', 'cosmopilot.voluzi.com/config-hash': '123' } },
          spec: {
            containers: [
              {
                name: 'app',
                env: [
                  { name: 'VAULT_TOKEN', value: 'plain-token' },
                  { name: 'LOG_LEVEL', value: 'info' },
                ],
              },
            ],
          },
        },
      ],
      logs: [{ namespace: 'n', pod: 'p', container: 'app', previous: false, truncated: false, text: 'token=hvs.CAESIJ8x1Fq2ZbYtQ9r0uVwXyZaBcDeFgHiJ' }],
      probes: [],
      redactions: 0,
    } as unknown as Snapshot
    const out = redactSnapshot(snapshot)
    const text = JSON.stringify(out)
    expect(text).not.toContain('plain-token')
    expect(text).not.toContain('hvs.CAESIJ')
    expect(text).toContain('"LOG_LEVEL","value":"info"')
    expect(text).toContain('"cosmopilot.voluzi.com/config-hash":"123"')
    expect(out.redactions).toBe(3)
  })
})
