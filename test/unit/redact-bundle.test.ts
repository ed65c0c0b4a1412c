import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readBundle, writeBundle } from '../../src/snapshot/bundle.js'
import { MASK, redactSnapshot } from '../../src/snapshot/redact.js'
import { useBundles } from '../helpers/bundles.js'
import { runCli } from '../helpers/cli.js'

const work = mkdtempSync(path.join(tmpdir(), 'redact-bundle-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const load = useBundles('healthy')

const TOKEN = 'hvs.CAESIJ0aBcDeFgHiJkLmNoPqRsTuVwXyZ012345'
const PASSWORD_LINE = 'connecting to postgres://app:Sup3rSecretPassw0rd@db:5432/chain'

/** The healthy bundle with a Vault token in an annotation and a password in a URL in a log, unredacted. */
async function leakyBundle(name: string): Promise<string> {
  const snapshot = load('healthy')
  const node = snapshot.objects.find((o) => o.kind === 'ChainNode')!
  node.metadata.annotations = { ...node.metadata.annotations, note: `token ${TOKEN}` }
  snapshot.logs[0].text += `${PASSWORD_LINE}\n`
  const out = path.join(work, name)
  await writeBundle(out, snapshot, false)
  return out
}

describe('redactions counted by file and pattern', () => {
  it('names the file and the pattern of each redaction, with counts and never the values', async () => {
    const leaky = await readBundle(await leakyBundle('counted.tgz'))
    const redacted = redactSnapshot(leaky)
    const node = leaky.objects.find((o) => o.kind === 'ChainNode')!
    const log = leaky.logs[0]
    expect(redacted.redactionsByFile).toMatchObject({
      [`resources/${node.metadata.namespace}/ChainNode.json`]: { 'vault-token': 1 },
      [`logs/${log.namespace}/${log.pod}/${log.container}${log.previous ? '.previous' : ''}.log`]: { 'url-password': 1 },
    })
    const total = Object.values(redacted.redactionsByFile!).flatMap((patterns) => Object.values(patterns))
    expect(total.reduce((a, b) => a + b, 0)).toBe(redacted.redactions - leaky.redactions)
    expect(JSON.stringify(redacted.redactionsByFile)).not.toMatch(/Sup3r|CAESIJ/)
  })
})

describe('chainnode redact IN --out OUT', () => {
  it('masks an existing bundle with the patterns of today, writes the counts into the manifest, and keeps the input as it was', async () => {
    const input = await leakyBundle('in.tgz')
    const before = readFileSync(input)
    const out = path.join(work, 'out.tgz')
    const { code, stderr } = await runCli(['redact', input, '--out', out])
    expect(code, stderr).toBe(0)
    expect(stderr).toMatch(/^wrote .*out\.tgz: 2 value\(s\) redacted by this run/)
    expect(readFileSync(input).equals(before)).toBe(true)
    const redacted = await readBundle(out)
    const text = JSON.stringify(redacted)
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain('Sup3rSecretPassw0rd')
    expect(text).toContain(MASK)
    // Nothing half-written is left next to the output.
    expect(readdirSync(work).filter((f) => f.includes('partial') || f.startsWith('.'))).toEqual([])
    const dir = path.join(work, 'out-dir')
    expect((await runCli(['redact', out, '--out', dir])).code).toBe(0)
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'))
    expect(manifest.redacted).toBe(true)
    expect(Object.keys(manifest.redactionsByFile).length).toBeGreaterThan(1)
  })

  it('refuses to write over its input, with one line and exit 2', async () => {
    const input = await leakyBundle('same.tgz')
    const before = statSync(input).mtimeMs
    const { code, stderr } = await runCli(['redact', input, '--out', input])
    expect(code).toBe(2)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/^error: --out .* is the bundle being redacted/)
    expect(statSync(input).mtimeMs).toBe(before)
    expect(existsSync(input)).toBe(true)
  })
})
