import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { install, interruptHandled, onInterrupt, sweepStaleTempDirs } from '../../src/util/cleanup.js'
import { UserError } from '../../src/util/errors.js'
import { readLimits, type ReadLimits } from '../../src/util/limits.js'
import { readBundle, writeBundle } from '../../src/snapshot/bundle.js'
import type { KubeObject } from '../../src/snapshot/types.js'
import { bundleFiles, gzipOfZeros, smallSnapshot, tarEntry, tgz, type TarEntry, writeBundleFolder } from '../helpers/hostile.js'

const work = mkdtempSync(path.join(tmpdir(), 'hostile-'))
/** What an attack would write to, were a path to leave the bundle: it must stay empty. */
const outside = path.join(work, 'outside')
let counter = 0
const fresh = (name: string) => path.join(work, `${counter++}-${name}`)

function folder(files: Record<string, string>): string {
  return writeBundleFolder(fresh('bundle'), files)
}

function archive(files: Record<string, string>, extra: TarEntry[] = []): string {
  const file = fresh('bundle.tgz')
  writeFileSync(file, tgz([...Object.entries(files).map(([name, content]) => ({ name: `top/${name}`, content })), ...extra]))
  return file
}

const withIndex = (file: string) => ({
  ...bundleFiles(),
  'logs/index.json': JSON.stringify([{ namespace: 'ns', pod: 'node-0', container: 'node-utils', previous: false, truncated: false, file }]),
})

const ourTempDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`chainnode-read-${process.pid}-`))

/** The read fails with one line of input error (exit 2) that matches, leaving no temporary folder and nothing outside. */
async function refused(source: string, expected: RegExp, limits?: Partial<ReadLimits>): Promise<string> {
  const error = await readBundle(source, { ...readLimits({}), ...limits }).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'the read should have failed').toBeInstanceOf(UserError)
  const { message, exitCode, hint } = error as UserError
  // What the CLI prints after "error: ".
  const line = hint ? `${message}; ${hint}` : message
  expect(exitCode).toBe(2)
  expect(line).not.toContain('\n')
  expect(line).toMatch(expected)
  expect(ourTempDirs()).toEqual([])
  expect(readdirSync(outside)).toEqual([])
  return line
}

beforeAll(() => {
  mkdirSync(outside)
})

describe('paths a bundle names stay inside it', () => {
  it('reads a well-formed bundle, as a folder and as a .tgz', async () => {
    for (const source of [folder(bundleFiles()), archive(bundleFiles())]) {
      const snapshot = await readBundle(source)
      expect(snapshot.objects.map((o) => o.kind).sort()).toEqual(['ChainNode', 'Event', 'Pod'])
      expect(snapshot.logs[0].text).toBe('line one\nline two\n')
    }
  })

  it('reads a bundle re-packed with `tar czf b.tgz .` (its first entry is the folder "./")', async () => {
    const file = fresh('repacked.tgz')
    writeFileSync(file, tgz([{ name: './', type: '5' }, ...Object.entries(bundleFiles()).map(([name, content]) => ({ name: `./${name}`, content }))]))
    expect((await readBundle(file)).objects).toHaveLength(3)
  })

  it('reads an optional field written as null as not given: a log index entry with "file": null is an empty log', async () => {
    const files = {
      ...bundleFiles(),
      'logs/index.json': JSON.stringify([{ namespace: 'ns', pod: 'node-0', container: 'node-utils', previous: false, file: null, error: null }]),
    }
    for (const source of [folder(files), archive(files)]) {
      const snapshot = await readBundle(source, readLimits({}))
      expect(snapshot.logs).toEqual([expect.objectContaining({ pod: 'node-0', container: 'node-utils', text: '', truncated: false })])
    }
  })

  it('refuses logs/index.json naming a file that climbs out (../../..)', async () => {
    const secret = path.join(work, 'secret')
    writeFileSync(secret, 'local secret')
    const line = await refused(folder(withIndex(`../../../../../../../../..${secret}`)), /names a path outside the bundle/)
    expect(line).not.toContain('local secret')
    await refused(archive(withIndex(`../../${path.basename(secret)}`)), /names a path outside the bundle/)
  })

  it('refuses logs/index.json naming /dev/zero (an absolute path), and a link to it inside a folder bundle', async () => {
    await refused(archive(withIndex('/dev/zero')), /names a path outside the bundle \("\/dev\/zero"\)/)
    const dir = folder(withIndex('logs/ns/node-0/node-utils.log'))
    execFileSync('rm', [path.join(dir, 'logs/ns/node-0/node-utils.log')])
    symlinkSync('/dev/zero', path.join(dir, 'logs/ns/node-0/node-utils.log'))
    await refused(dir, /logs\/ns\/node-0\/node-utils\.log is a symbolic link/)
  })

  it('reads only regular files: a FIFO in a folder bundle is refused, not waited on', async () => {
    const dir = folder(withIndex('logs/fifo.log'))
    execFileSync('mkfifo', [path.join(dir, 'logs/fifo.log')])
    await refused(dir, /logs\/fifo\.log is not a regular file/)
  })

  it('follows no symbolic link in a folder bundle (a file, a folder)', async () => {
    writeFileSync(path.join(work, 'elsewhere.json'), '[]')
    const dir = folder(bundleFiles())
    symlinkSync(path.join(work, 'elsewhere.json'), path.join(dir, 'resources', 'ns', 'Secret.json'))
    await refused(dir, /resources\/ns\/Secret\.json is a symbolic link/)
    const linkedFolder = folder(bundleFiles())
    symlinkSync(work, path.join(linkedFolder, 'resources', 'elsewhere'))
    await refused(linkedFolder, /resources\/elsewhere is a symbolic link/)
  })

  it('a .tgz is read from one file without a name: nothing of it is in the temporary folder, even while it parses', async () => {
    const seen: string[][] = []
    const snapshot = await readBundle(archive(bundleFiles()), readLimits({}), (step) => {
      if (step.startsWith('parsing')) seen.push(readdirSync(tmpdir()).filter((name) => name.startsWith(`chainnode-read-${process.pid}-`)))
    })
    expect(snapshot.objects).toHaveLength(3)
    expect(seen.length).toBeGreaterThan(3)
    expect(seen.flat()).toEqual([])
  })

  it('a path the bundle names reads alike from a folder and from a .tgz ("./" and a trailing slash included)', async () => {
    for (const file of ['./logs/ns/node-0/node-utils.log', 'logs/ns/node-0/node-utils.log/', 'logs//ns/node-0/./node-utils.log']) {
      const files = { ...withIndex(file), 'logs/ns/node-0/node-utils.log': 'the log\n' }
      for (const source of [folder(files), archive(files)]) expect((await readBundle(source)).logs[0].text, `${file} in ${source}`).toBe('the log\n')
    }
  })

  it('a name given twice in a .tgz is read as its later entry, as tar would unpack it', async () => {
    const pods = JSON.parse(bundleFiles()['resources/ns/Pod.json']) as { metadata: { name: string } }[]
    const renamed = JSON.stringify(pods.map((pod) => ({ ...pod, metadata: { ...pod.metadata, name: 'later' } })))
    const snapshot = await readBundle(archive(bundleFiles(), [{ name: 'top/resources/ns/Pod.json', content: renamed }]))
    expect(snapshot.objects.filter((o) => o.kind === 'Pod').map((o) => o.metadata.name)).toEqual(['later'])
  })

  it.each([
    [
      'a file, then a folder of the same name',
      [
        { name: 'top/extra', content: 'x' },
        { name: 'top/extra/', type: '5' },
      ],
    ],
    [
      'a folder, then a file of the same name',
      [
        { name: 'top/extra/', type: '5' },
        { name: 'top/extra', content: 'x' },
      ],
    ],
    [
      'a file inside a file',
      [
        { name: 'top/extra', content: 'x' },
        { name: 'top/extra/inner.json', content: 'x' },
      ],
    ],
  ] as [string, TarEntry[]][])('refuses a .tgz with %s, in one line', async (_name, entries) => {
    await refused(archive(bundleFiles(), entries), /has an entry that is both a file and a folder \("top\/extra/)
  })

  it.each([
    ['a path that climbs out', { name: '../../escape.json', content: 'x' }, /leaves the bundle/],
    ['an absolute path', { name: `${outside}/abs.json`, content: 'x' }, /leaves the bundle/],
    ['a symbolic link', { name: 'top/link', type: '2', linkname: '/etc/passwd' }, /holds a link/],
    ['a hard link', { name: 'top/hard', type: '1', linkname: '/etc/passwd' }, /holds a link/],
    ['a character device', { name: 'top/zero', type: '3' }, /holds a device/],
    ['a FIFO', { name: 'top/fifo', type: '6' }, /holds a FIFO/],
    ['a header with a wrong checksum', { name: 'top/x', content: 'x', badChecksum: true }, /wrong checksum/],
  ] as [string, TarEntry, RegExp][])('refuses a .tgz entry with %s', async (_name, entry, message) => {
    await refused(archive(bundleFiles(), [entry]), message)
  })
})

describe('limits, each named with how to raise it', () => {
  it('a gzip of zeros ends at the end-of-archive marker it starts with, not after unpacking it all', async () => {
    const bomb = fresh('zeros.tgz')
    await gzipOfZeros(bomb, 256 << 20)
    await refused(bomb, /is not a chainnode bundle \(no manifest\.json\)/)
  })

  it('refuses a bomb behind a real header by the decompression ratio, as it streams', async () => {
    const bomb = fresh('ratio.tgz')
    await gzipOfZeros(bomb, 100 << 20, tarEntry({ name: 'top/big.json', size: 100 << 20 }).subarray(0, 512))
    const line = await refused(bomb, /over the limit of the decompression ratio of a bundle \(100\)/)
    expect(line).toMatch(/KUBECTL_CHAINNODE_MAX_RATIO=400/)
  })

  it('refuses a bundle that unpacks to more than the total limit', async () => {
    const logs = ['a', 'b', 'c', 'd'].map((container) => ({ namespace: 'ns', pod: 'node-0', container, previous: false, file: `logs/${container}.log` }))
    const files: Record<string, string> = { ...bundleFiles(), 'logs/index.json': JSON.stringify(logs) }
    for (const log of logs) files[log.file] = 'x'.repeat(300 * 1024)
    const line = await refused(archive(files), /over the limit of the unpacked size of a bundle \(1 MiB\)/, { bundleBytes: 1 << 20 })
    expect(line).toMatch(/KUBECTL_CHAINNODE_MAX_BUNDLE_SIZE=4MiB/)
    await refused(folder(files), /over the limit of the unpacked size of a bundle/, { bundleBytes: 1 << 20 })
  })

  it('refuses one entry larger than its limit from its header, before unpacking it', async () => {
    const bomb = fresh('entry.tgz')
    await gzipOfZeros(bomb, 1 << 20, tarEntry({ name: 'top/resources/ns/Pod.json', size: 1 << 30 }).subarray(0, 512))
    await refused(bomb, /Pod\.json" \(1073741824 bytes\) is over the limit of the size of one file in a bundle \(128 MiB\)/)
  })

  it('quotes an oversized entry whose name carries a line break or escape codes, so the refusal stays one line (found by the fuzz test)', async () => {
    // A GNU long name ("L") may hold any bytes; the name the next entry gets keeps them.
    const longName = (name: string): TarEntry => ({ name: '././@LongLink', type: 'L', content: `${name}\0` })
    const big = 'x'.repeat(2048)
    for (const name of ['top/evil\nname.json', 'top/\u001b[2Jclear.log']) {
      const file = archive(bundleFiles(), [longName(name), { name: 'short', content: big }])
      const line = await refused(file, /over the limit of the size of one (file|log) in a bundle \(1 KiB\)/, { entryBytes: 1024, logBytes: 1024 })
      expect(line).toContain(JSON.stringify(name))
    }
    // A folder bundle's log index may name such a file too.
    const name = 'logs/ns/node-0/evil\nname.log'
    const dir = folder({ ...withIndex(name), [name]: big })
    const line = await refused(dir, /over the limit of the size of one log in a bundle \(1 KiB\)/, { logBytes: 1024 })
    expect(line).toContain(JSON.stringify(name))
  })

  it('refuses more entries than the limit', async () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`resources/ns/K${i}.json`, '[]']))
    await refused(archive({ ...bundleFiles(), ...many }), /over the limit of the number of files in a bundle \(20\)/, { entries: 20 })
    await refused(folder({ ...bundleFiles(), ...many }), /over the limit of the number of files in a bundle \(20\)/, { entries: 20 })
  })

  it('refuses a 1 GB log by the log limit without reading it (a sparse file in a folder, a header in a .tgz)', async () => {
    const dir = folder(withIndex('logs/ns/node-0/node-utils.log'))
    truncateSync(path.join(dir, 'logs/ns/node-0/node-utils.log'), 1 << 30)
    await refused(dir, /node-utils\.log" \(1073741824 bytes\) is over the limit of the size of one log in a bundle \(64 MiB\)/)
    const bomb = fresh('log.tgz')
    await gzipOfZeros(bomb, 1 << 20, tarEntry({ name: 'top/logs/ns/node-0/app.log', size: 100 << 20 }).subarray(0, 512))
    await refused(bomb, /app\.log" \(104857600 bytes\) is over the limit of the size of one log/)
  })

  it('reads limits from the environment and refuses values it cannot use', () => {
    expect(readLimits({ KUBECTL_CHAINNODE_MAX_BUNDLE_SIZE: '2GiB', KUBECTL_CHAINNODE_MAX_ENTRIES: '5' })).toMatchObject({
      bundleBytes: 2 * 1024 ** 3,
      entries: 5,
    })
    expect(() => readLimits({ KUBECTL_CHAINNODE_MAX_LOG_SIZE: 'lots' })).toThrow(/KUBECTL_CHAINNODE_MAX_LOG_SIZE="lots" is not a size/)
    expect(() => readLimits({ KUBECTL_CHAINNODE_MAX_LOG_SIZE: '2GiB' })).toThrow(/above what this tool can hold \(256 MiB\)/)
  })
})

describe('JSON of the wrong shape: one line naming the file and what is wrong', () => {
  it.each([
    [
      'an object where a list belongs',
      'resources/ns/Pod.json',
      '{"kind":"Pod"}',
      /resources\/ns\/Pod\.json is not what a bundle holds: the file should be a list, not an object/,
    ],
    ['a list of null, 1 and "x"', 'resources/ns/Pod.json', '[null, 1, "x"]', /resources\/ns\/Pod\.json .*\[0\] should be an object, not null/],
    ['logs/index.json not a list', 'logs/index.json', '{"file":"x"}', /logs\/index\.json .*should be a list, not an object/],
    [
      'a log entry whose file is a number',
      'logs/index.json',
      '[{"namespace":"ns","pod":"p","container":"c","previous":false,"file":7}]',
      /\[0\]\.file should be a string, not number 7/,
    ],
    [
      'labels that are not strings',
      'resources/ns/Pod.json',
      '[{"kind":"Pod","metadata":{"name":"p","labels":{"a":{"b":1}}}}]',
      /\[0\]\.metadata\.labels\["a"\] should be a string/,
    ],
    [
      'a manifest without a scope',
      'manifest.json',
      JSON.stringify({ kind: 'chainnode-bundle', formatVersion: 1, collectedAt: '2026-11-22T10:00:00Z' }),
      /manifest\.json .*scope is missing/,
    ],
    ['probes.json of strings', 'probes.json', '["ok"]', /probes\.json .*\[0\] should be an object, not the string "ok"/],
    ['invalid JSON', 'tables/chainnodes.json', '[{', /tables\/chainnodes\.json is not valid JSON/],
  ])('%s', async (_name, file, content, message) => {
    await refused(folder({ ...bundleFiles(), [file]: content }), message)
  })

  it('a null in metadata (kubectl writes an unset creationTimestamp so) reads as the field not given', async () => {
    const pods = '[{"kind":"Pod","metadata":{"name":"p","creationTimestamp":null,"labels":null,"uid":"u"}}]'
    const snapshot = await readBundle(folder({ ...bundleFiles(), 'resources/ns/Pod.json': pods }))
    expect(snapshot.objects.find((o) => o.metadata.name === 'p')?.metadata).toStrictEqual({ name: 'p', uid: 'u' })
  })

  it('an object its kind would misdescribe (containers not a list) is left out with the reason; the rest of the file is read', async () => {
    const pods = '[{"kind":"Pod","metadata":{"name":"p"},"spec":{"containers":{"name":"app"}}},{"kind":"Pod","metadata":{"name":"q"}}]'
    const snapshot = await readBundle(folder({ ...bundleFiles(), 'resources/ns/Pod.json': pods }))
    expect(snapshot.objects.filter((o) => o.kind === 'Pod').map((o) => o.metadata.name)).toEqual(['q'])
    expect(snapshot.collectionErrors).toContainEqual({
      what: 'read Pod p from resources/ns/Pod.json',
      reason: 'error',
      message: 'left out: spec.containers should be a list, not an object',
    })
  })

  it.each([
    ['the string "1"', '"1"', /formatVersion is "1", not a positive whole number/],
    ['-1', '-1', /formatVersion is -1, not a positive whole number/],
    ['1.5', '1.5', /formatVersion is 1.5, not a positive whole number/],
    ['a list', '[[1]]', /formatVersion is a list, not a positive whole number/],
    // Found by test/unit/fuzz-classes.test.ts: the message stringified the value, through any depth.
    ['a list 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, /manifest\.json holds values nested deeper than 512 levels/],
  ])('formatVersion given as %s', async (_name, value, message) => {
    const files = bundleFiles()
    files['manifest.json'] = files['manifest.json'].replace('"formatVersion":1', `"formatVersion":${value}`)
    await refused(folder(files), message)
  })

  it('a manifest kind that is an object is named by its kind, not stringified', async () => {
    const files = bundleFiles()
    files['manifest.json'] = files['manifest.json'].replace('"kind":"chainnode-bundle"', `"kind":${'{"a":'.repeat(500)}1${'}'.repeat(500)}`)
    await refused(folder(files), /not a chainnode bundle \(manifest kind is an object\)/)
  })
})

describe('large lists and logs, without recursion or string limits', () => {
  // About 5 s alone; the 30 s default was too little at load 14 on two cores.
  it('reads a bundle of 300,000 objects of one kind', { timeout: 120_000 }, async () => {
    const events = Array.from({ length: 300_000 }, (_, i) => ({
      kind: 'Event',
      metadata: { name: `e${i}`, namespace: 'ns' },
      involvedObject: { kind: 'Pod', name: 'node-0', uid: 'p1' },
    }))
    const snapshot = await readBundle(folder({ ...bundleFiles(), 'resources/ns/Event.json': JSON.stringify(events) }))
    expect(snapshot.objects.filter((o) => o.kind === 'Event')).toHaveLength(300_000)
  })
})

describe('signal listeners', () => {
  it('are attached only while something needs undoing, so that otherwise a signal ends the process at once', () => {
    install()
    const before = process.listenerCount('SIGINT')
    expect(interruptHandled()).toBe(false)
    const releaseOne = onInterrupt(() => undefined)
    const releaseTwo = onInterrupt(() => undefined)
    expect(interruptHandled()).toBe(true)
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(process.listenerCount(signal), signal).toBe(before + 1)
    releaseOne()
    expect(process.listenerCount('SIGINT')).toBe(before + 1)
    releaseTwo()
    expect(interruptHandled()).toBe(false)
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(process.listenerCount(signal), signal).toBe(before)
  })
})

describe('writing', () => {
  it('collect writes a long list a slice at a time, byte for byte what JSON.stringify(list, null, 1) writes', async () => {
    const snapshot = smallSnapshot()
    const events = Array.from({ length: 4500 }, (_, i) => ({ kind: 'Event', metadata: { name: `e${i}`, namespace: 'ns' }, list: [1, [], {}], text: 'a\nb' }))
    snapshot.objects.push(...(events as unknown as KubeObject[]))
    const target = fresh('written')
    await writeBundle(target, snapshot, true)
    const all = snapshot.objects.filter((o) => o.kind === 'Event' && o.metadata.namespace === 'ns')
    expect(readFileSync(path.join(target, 'resources/ns/Event.json'), 'utf8')).toBe(`${JSON.stringify(all, null, 1)}\n`)
    expect(readFileSync(path.join(target, 'probes.json'), 'utf8')).toBe('[]\n')
    expect((await readBundle(target)).objects).toHaveLength(snapshot.objects.length)
  })
})

describe('temporary folders', () => {
  it('removes a folder a killed run left behind (by name, owner and age), and nothing else', () => {
    const dead = Number(execFileSync('sh', ['-c', 'sh -c "echo \\$\\$"']).toString().trim())
    const left = path.join(tmpdir(), `chainnode-read-${dead}-abcdef`)
    const recent = path.join(tmpdir(), `chainnode-read-${dead}-ghijkl`)
    const foreign = path.join(tmpdir(), `chainnode-reader-${dead}-abcdef`)
    // A file of that name: a run killed between creating its nameless file and unlinking it.
    const file = path.join(tmpdir(), `chainnode-read-${dead}-mnopqr`)
    for (const dir of [left, recent, foreign]) mkdirSync(dir, { recursive: true })
    writeFileSync(file, 'x')
    const hourAgo = new Date(Date.now() - 3_600_000)
    for (const old of [left, foreign, file]) utimesSync(old, hourAgo, hourAgo)
    const removed = sweepStaleTempDirs()
    expect(removed).toContain(left)
    expect(removed).toContain(file)
    expect(existsSync(left)).toBe(false)
    expect(existsSync(file)).toBe(false)
    expect(existsSync(recent)).toBe(true)
    expect(existsSync(foreign)).toBe(true)
    execFileSync('rm', ['-rf', recent, foreign])
  })
})
