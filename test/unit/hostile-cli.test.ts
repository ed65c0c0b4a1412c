import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI, ROOT, runCli } from '../helpers/cli.js'
import { ESCAPES, bundleFiles, gzipOfZeros, manyEvents, tarEntry, tgz, writeLargeProfile, writeBundleFolder } from '../helpers/hostile.js'

const work = mkdtempSync(path.join(tmpdir(), 'hostile-cli-'))
let counter = 0

function folder(files: Record<string, string>): string {
  return writeBundleFolder(path.join(work, `bundle-${counter++}`), files)
}

const withLogFile = (file: string) => ({
  ...bundleFiles(),
  'logs/index.json': JSON.stringify([{ namespace: 'ns', pod: 'node-0', container: 'node-utils', previous: false, truncated: false, file }]),
})

/** Exit 2 and one line on stderr, no stack trace. */
function inputError(result: { code: number; stderr: string }, expected: RegExp): void {
  expect(result.code, result.stderr).toBe(2)
  const lines = result.stderr.trim().split('\n')
  expect(lines, result.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(/^error: /)
  expect(lines[0]).toMatch(expected)
  expect(result.stderr).not.toMatch(/^\s+at /m)
}

describe('hostile bundles and profiles through the real CLI', () => {
  it('logs: a log file named ../../../.. outside the bundle is refused, not printed', async () => {
    writeFileSync(path.join(work, 'local-file'), 'LOCAL CONTENT')
    const result = await runCli(['logs', 'node-0', '-c', 'node-utils', '--bundle', folder(withLogFile('../../local-file'))])
    inputError(result, /names a path outside the bundle \("\.\.\/\.\.\/local-file"\)/)
    expect(result.stdout).not.toContain('LOCAL CONTENT')
  })

  it('logs: a log file named /dev/zero is refused at once', async () => {
    inputError(await runCli(['logs', 'node-0', '-c', 'node-utils', '--bundle', folder(withLogFile('/dev/zero'))]), /outside the bundle \("\/dev\/zero"\)/)
  })

  it('a gzip bomb behind a tar header stops at the ratio limit', async () => {
    const bomb = path.join(work, 'bomb.tgz')
    await gzipOfZeros(bomb, 512 << 20, tarEntry({ name: 'top/resources/ns/Pod.json', size: 120 << 20 }).subarray(0, 512))
    inputError(
      await runCli(['doctor', '--bundle', bomb]),
      /decompression ratio of a bundle \(100\); if you trust the file, raise it with KUBECTL_CHAINNODE_MAX_RATIO=400/,
    )
  })

  it('pprof top: a gzip of zeros stops at the profile limit', async () => {
    const bomb = path.join(work, 'bomb.pb.gz')
    await gzipOfZeros(bomb, 300 << 20)
    inputError(
      await runCli(['pprof', 'top', bomb]),
      /bomb\.pb\.gz \(it unpacks to more\) is over the limit of the size of a profile \(256 MiB\).*KUBECTL_CHAINNODE_MAX_PROFILE_SIZE=1GiB/,
    )
    inputError(
      await runCli(['pprof', 'top', bomb], { env: { KUBECTL_CHAINNODE_MAX_PROFILE_SIZE: '1KiB' } }),
      /bomb\.pb\.gz \(\d+ bytes\) is over the limit of the size of a profile \(1 KiB\)/,
    )
  })

  it('pprof top: a profile that decodes to more than the decoded limit is refused before decoding, naming what made it large', async () => {
    const profile = path.join(work, 'many-frames.pb')
    writeLargeProfile(profile, 1 << 20)
    inputError(
      await runCli(['pprof', 'top', profile], { env: { KUBECTL_CHAINNODE_MAX_PROFILE_DECODED: '1MiB' } }),
      /many-frames\.pb \(it decodes to about \d+ MiB: [\d,]+ samples, [\d,]+ frames, 1,000 locations, 1,000 functions, 1,005 strings\) is over the limit of the decoded size of a profile \(1 MiB\); .*KUBECTL_CHAINNODE_MAX_PROFILE_DECODED=4MiB/,
    )
    const allowed = await runCli(['pprof', 'top', profile], { env: { KUBECTL_CHAINNODE_MAX_PROFILE_DECODED: '8MiB' } })
    expect(allowed.code, allowed.stderr).toBe(0)
  })

  it('a folder bundle with a link to a file outside is refused', async () => {
    const dir = folder(bundleFiles())
    writeFileSync(path.join(work, 'outside.json'), '[]')
    symlinkSync(path.join(work, 'outside.json'), path.join(dir, 'resources', 'ns', 'ConfigMap.json'))
    inputError(await runCli(['doctor', '--bundle', dir]), /resources\/ns\/ConfigMap\.json is a symbolic link/)
  })

  it('a name with a line break and escape codes stays on the one error line, shown, not obeyed', async () => {
    const dir = folder(bundleFiles())
    writeFileSync(path.join(work, 'outside-2.json'), '[]')
    // A namespace folder whose name breaks the line and clears the screen, holding a link.
    mkdirSync(path.join(dir, 'resources', 'ns\n\u001b[2Jx'))
    symlinkSync(path.join(work, 'outside-2.json'), path.join(dir, 'resources', 'ns\n\u001b[2Jx', 'Pod.json'))
    inputError(await runCli(['doctor', '--bundle', dir]), /resources\/ns\\n\^\[\[2Jx\/Pod\.json is a symbolic link/)
  })

  it('JSON of the wrong shape names the file and the field', async () => {
    inputError(
      await runCli(['doctor', '--bundle', folder({ ...bundleFiles(), 'resources/ns/Pod.json': '[null, 1, "x"]' })]),
      /Pod\.json is not what a bundle holds: \[0\] should be an object, not null/,
    )
    inputError(await runCli(['status', '--bundle', folder({ ...bundleFiles(), 'logs/index.json': '{}' })]), /logs\/index\.json is not what a bundle holds/)
  })

  it('formatVersion "1" is refused with a clear line', async () => {
    const files = bundleFiles()
    files['manifest.json'] = files['manifest.json'].replace('"formatVersion":1', '"formatVersion":"1"')
    inputError(await runCli(['doctor', '--bundle', folder(files)]), /formatVersion is "1", not a positive whole number/)
  })

  it('a 1 GB log is refused by the log limit', async () => {
    const dir = folder({ ...withLogFile('logs/big.log'), 'logs/big.log': '' })
    truncateSync(path.join(dir, 'logs/big.log'), 1 << 30)
    inputError(
      await runCli(['logs', 'node-0', '-c', 'node-utils', '--bundle', dir]),
      /big\.log" \(1073741824 bytes\) is over the limit of the size of one log.*KUBECTL_CHAINNODE_MAX_LOG_SIZE=256MiB/,
    )
  })

  it('a bundle of 300,000 objects of one kind is diagnosed', async () => {
    const events = Array.from({ length: 300_000 }, (_, i) => ({
      kind: 'Event',
      metadata: { name: `e${i}`, namespace: 'ns' },
      involvedObject: { kind: 'Pod', name: 'node-0', uid: 'p1' },
      message: 'm',
    }))
    const result = await runCli([
      'doctor',
      '--bundle',
      folder({ ...bundleFiles(), 'resources/ns/Event.json': JSON.stringify(events) }),
      '-o',
      'json',
      '--fail-on',
      'never',
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout).clusters[0].ruleErrors).toEqual([])
  })

  it('KUBECONFIG naming a missing file says so', async () => {
    inputError(
      await runCli(['doctor', 'x'], { env: { KUBECONFIG: '/nonexistent/kubeconfig', HOME: work } }),
      /kubeconfig \/nonexistent\/kubeconfig \(from KUBECONFIG\) does not exist/,
    )
  })

  it('terminal escape sequences from a bundle are shown, not played, in text and Markdown; JSON keeps them exact', async () => {
    const dir = folder(bundleFiles())
    // eslint-disable-next-line no-control-regex
    const raw = /[\u001b\u0007\u009b]/
    for (const argv of [['events'], ['describe', 'node-0'], ['doctor', '--fail-on', 'never'], ['doctor', '-o', 'markdown', '--fail-on', 'never']]) {
      const result = await runCli([...argv, '--bundle', dir])
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout, argv.join(' ')).not.toMatch(raw)
      if (argv[0] !== 'doctor') expect(result.stdout, argv.join(' ')).toContain('^[[2J^[]0;pwned^G^[[31mFAKE RED^[[0m\\u009b1m')
    }
    writeFileSync(path.join(dir, 'logs/ns/node-0/node-utils.log'), `before\n${ESCAPES}\nafter\n`)
    const logs = await runCli(['logs', 'node-0', '-c', 'node-utils', '--bundle', dir])
    expect(logs.code, logs.stderr).toBe(0)
    expect(logs.stdout).not.toMatch(raw)
    expect(logs.stdout).toMatch(/^before\n.*FAKE RED.*\\u009b1m\nafter\n$/)
    const json = await runCli(['events', '--bundle', dir, '-o', 'json'])
    expect(JSON.parse(json.stdout).events[0].message).toBe('look \u001b[2J\u001b]0;pwned\u0007\u001b[31mFAKE RED\u001b[0m\u009b1m here')
  })

  it('a run killed with SIGKILL while unpacking leaves nothing; a folder an older version left is removed by the next run, once old', async () => {
    const slow = path.join(work, 'slow-kill.tgz')
    await gzipOfZeros(slow, 127 << 20, tarEntry({ name: 'top/resources/ns/Pod.json', size: 127 << 20 }).subarray(0, 512))
    const tmp = ownTmp()
    const killed = await interruptDuring(['doctor', '--bundle', slow], tmp, /bundle: unpacking/, 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    // What it unpacked went to a file without a name, which the kernel freed with the process.
    expect(readdirSync(tmp)).toEqual([])
    const dead = killed.pid
    const older = path.join(tmp, `chainnode-read-${dead}-abcdef`)
    const recent = path.join(tmp, `chainnode-read-${dead}-ghijkl`)
    for (const dir of [older, recent]) mkdirSync(path.join(dir, 'top'), { recursive: true })
    const hourAgo = new Date(Date.now() - 3_600_000)
    utimesSync(older, hourAgo, hourAgo)
    const good = path.join(work, 'good.tgz')
    writeFileSync(good, tgz(Object.entries(bundleFiles()).map(([name, content]) => ({ name: `top/${name}`, content }))))
    const next = await runCli(['status', '--bundle', good], { env: { TMPDIR: tmp } })
    expect(next.code, next.stderr).toBe(0)
    expect(readdirSync(tmp)).toEqual([path.basename(recent)])
  })
})

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const

/**
 * Long synchronous work, each entered after a --debug line that says so: from that line to the next step
 * the process never turns its event loop, so a signal it handled in JavaScript would wait for the end of it.
 */
const phases = [
  {
    phase: 'unpacking a .tgz of 127 MiB',
    argv: async () => {
      const file = path.join(work, 'slow-unpack.tgz')
      if (!existsSync(file)) await gzipOfZeros(file, 127 << 20, tarEntry({ name: 'top/resources/ns/Pod.json', size: 127 << 20 }).subarray(0, 512))
      return ['doctor', '--bundle', file]
    },
    entered: /bundle: unpacking/,
    after: /bundle: reading resources/,
  },
  {
    phase: 'parsing a bundle file of 120 MiB',
    argv: async () => {
      const file = path.join(work, 'big-entry.tgz')
      if (!existsSync(file)) {
        const files = { ...bundleFiles(), 'resources/ns/Event.json': manyEvents(900_000) }
        writeFileSync(file, tgz(Object.entries(files).map(([name, content]) => ({ name: `top/${name}`, content }))))
      }
      return ['doctor', '--bundle', file]
    },
    entered: /bundle: parsing resources\/ns\/Event\.json/,
    after: /bundle: parsed resources\/ns\/Event\.json/,
  },
  {
    phase: 'decoding a profile of 160 MiB',
    argv: async () => {
      const file = path.join(work, 'big.pb')
      if (!existsSync(file)) writeLargeProfile(file, 160 << 20)
      return ['pprof', 'top', file]
    },
    entered: /pprof: decoding/,
    after: /Showing nodes/,
  },
  {
    phase: 'rules and renderers over 300,000 Events',
    argv: async () => {
      const dir = path.join(work, 'events-300k')
      if (!existsSync(dir)) {
        writeBundleFolder(dir, { ...bundleFiles(), 'resources/ns/Event.json': manyEvents(300_000) })
      }
      return ['doctor', '--bundle', dir, '--fail-on', 'never']
    },
    entered: /bundle: read 300\d{3} objects/,
    after: /Read from bundle/,
  },
]

describe('Ctrl-C and SIGTERM end a run in the middle of long synchronous work', () => {
  it.each(phases.flatMap((p) => (['SIGINT', 'SIGTERM'] as const).map((signal) => ({ ...p, signal }))))(
    '$signal while $phase: the run ends there, prints no report and leaves nothing in its TMPDIR',
    async ({ argv, entered, after, signal }) => {
      const tmp = ownTmp()
      const run = await interruptDuring(await argv(), tmp, entered, signal)
      expect(run.signalled, run.stderr).toBe(true)
      // Ended by the signal (the kernel's default action), or by the handler with the shell's code.
      expect(run.signal === signal || run.code === EXIT_CODES[signal], `${run.code} ${run.signal}`).toBe(true)
      // It ended inside the phase: it never reached the step after it, nor printed a report.
      expect(run.stdout + run.stderr).not.toMatch(after)
      expect(run.stdout).toBe('')
      expect(readdirSync(tmp)).toEqual([])
    },
    120_000,
  )
})

/** A TMPDIR of one's own: whatever a run leaves there is its own. */
function ownTmp(): string {
  return mkdtempSync(path.join(work, 'tmp-'))
}

/** Run the CLI with --debug; send `signal` as soon as stderr shows it has `entered` a phase; resolve when it is gone. */
function interruptDuring(argv: string[], tmp: string, entered: RegExp, signal: NodeJS.Signals) {
  const child = spawn(CLI, [...argv, '--debug'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', KUBECONFIG: '', TMPDIR: tmp, KUBECTL_CHAINNODE_MAX_RATIO: '1000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  let signalled = false
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => {
    stderr += d
    if (!signalled && entered.test(stderr)) {
      signalled = true
      child.kill(signal)
    }
  })
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; signalled: boolean; pid: number }>((resolve) =>
    child.on('close', (code, ended) => resolve({ code, signal: ended, stdout, stderr, signalled, pid: child.pid! })),
  )
}
