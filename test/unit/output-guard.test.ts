import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { reportFailure } from '../../src/entry/failure.js'
import { progress } from '../../src/render/progress.js'
import { guarded, outputFormatOf } from '../../src/util/output.js'
import { runCli, ROOT } from '../helpers/cli.js'
import { ESCAPES, bundleFiles, smallSnapshot, writeBundleFolder } from '../helpers/hostile.js'
import { buildProfile } from './pprof/build-profile.js'

// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/
/** Clipboard write (OSC 52), clear screen, carriage return, a right-to-left override. */
const HOSTILE = `\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\rOK\u202etxt.exe`
const work = mkdtempSync(path.join(tmpdir(), 'output-guard-'))

afterEach(() => vi.restoreAllMocks())

function captureStderr(): string[] {
  const written: string[] = []
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk))
    return true
  })
  return written
}

describe('the output guard (src/util/output.ts)', () => {
  it('shows every control character in text, keeping tabs and newlines', () => {
    expect(guarded(`a\tb\n${HOSTILE}`, 'text', false)).toBe('a\tb\n^[]52;c;ZWNobyBwd25lZA==^G^[[2J\\rOK\\u202etxt.exe')
  })

  it('lets the palette colours through when colour is on, and nothing else', () => {
    const painted = '\u001b[31m\u001b[1merror\u001b[22m\u001b[39m \u001b[90mmuted\u001b[39m'
    expect(guarded(painted, 'text', true)).toBe(painted)
    expect(guarded(painted, 'text', false)).not.toMatch(RAW)
    const hostile = guarded(`${HOSTILE}\u001b[8mhidden\u001b[5m\u001b[2J\u009b2J`, 'text', true)
    expect(hostile).not.toMatch(RAW)
    expect(hostile).toContain('^[[8mhidden^[[5m^[[2J\\u009b2J')
  })

  it('keeps JSON exact: what it escapes reads back as the same characters', () => {
    const document = { message: `${HOSTILE}\u007f\u0085\u2066`, nested: [ESCAPES] }
    const out = guarded(JSON.stringify(document, null, 2), 'json')
    expect(out).not.toMatch(RAW)
    expect(JSON.parse(out)).toEqual(document)
  })

  it('writes XML character references for what XML 1.0 allows but a terminal would obey', () => {
    expect(guarded('<a b="x\u007f\u0085\u202e"/>', 'xml')).toBe('<a b="x&#x7f;&#x85;&#x202e;"/>')
    expect(outputFormatOf('junit')).toBe('xml')
    expect(outputFormatOf('json')).toBe('json')
    expect(outputFormatOf('markdown')).toBe('text')
  })

  it('is the only place that writes to stdout or stderr: no raw write or console call in src/', () => {
    const raw = /process\s*\.\s*(?:stdout|stderr)\s*\.\s*write\b|\bconsole\s*\.\s*[a-z]+\s*\(|no-restricted-syntax/
    const offenders: string[] = []
    const src = path.join(ROOT, 'src')
    for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file === path.join('util', 'output.ts')) continue
      readFileSync(path.join(src, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (raw.test(line) && !/^\s*(?:\/\/|\*)/.test(line)) offenders.push(`src/${file}:${i + 1}: ${line.trim()}`)
        })
    }
    expect(offenders).toEqual([])
  })

  it('guards the internal-error line and the --debug stack on stderr', () => {
    const written = captureStderr()
    reportFailure(new Error(`boom ${HOSTILE}`), true)
    expect(written.join('')).toContain('internal error of kubectl-chainnode: boom ^[]52;c;')
    expect(written.join('')).not.toMatch(RAW)
  })

  it('guards the spinner text (a bundle or folder name) on a terminal', async () => {
    const stderr = process.stderr as unknown as Record<string, unknown>
    const saved = Object.fromEntries(['isTTY', 'columns', 'cursorTo', 'clearLine', 'moveCursor'].map((key) => [key, stderr[key]]))
    const ci = process.env.CI
    const written = captureStderr()
    Object.assign(stderr, { isTTY: true, columns: 200, cursorTo: () => true, clearLine: () => true, moveCursor: () => true })
    delete process.env.CI
    try {
      const spinner = await progress(`reading bundle ${HOSTILE}`)
      spinner.update(`reading bundle ${HOSTILE}: logs`)
      await new Promise((resolve) => setTimeout(resolve, 150))
      spinner.stop()
    } finally {
      Object.assign(stderr, saved)
      if (ci !== undefined) process.env.CI = ci
    }
    const text = written.join('')
    expect(text).toContain('reading bundle ^[]52;c;')
    expect(text).not.toContain('\u001b]52')
    expect(text).not.toContain('\u202e')
  })
})

describe('the output guard through the real CLI', () => {
  it('pprof top: function, file, sample-type and comment names from the profile are shown, not obeyed', async () => {
    const file = path.join(work, 'hostile.pb')
    writeFileSync(
      file,
      buildProfile({
        sampleTypes: [
          [`samples${HOSTILE}`, 'count'],
          [`cpu${HOSTILE}`, 'nanoseconds'],
        ],
        locations: { 1: [`main.evil${HOSTILE}`], 2: ['main.main'] },
        samples: [
          { stack: [1, 2], values: [3, 30_000_000] },
          { stack: [2], values: [1, 10_000_000] },
        ],
        mappingFile: `/bin/app${HOSTILE}`,
      }),
    )
    const result = await runCli(['pprof', 'top', file])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('main.evil^[]52;c;')
    expect(result.stdout).not.toMatch(RAW)
    expect(result.stderr).not.toMatch(RAW)
  })

  it('doctor: the probe target and detail of probes.json in "Measured on the nodes" are shown, not obeyed', async () => {
    const dir = path.join(work, `probes${HOSTILE.replace(/\//g, '')}`)
    const snapshot = smallSnapshot()
    snapshot.probes = [
      { kind: 'chain', namespace: 'ns', pod: 'node-0', target: `26657${HOSTILE}`, ok: false, detail: `refused ${HOSTILE}`, at: snapshot.collectedAt },
    ]
    writeBundleFolder(dir, bundleFiles(snapshot))
    const result = await runCli(['doctor', '--bundle', dir, '--fail-on', 'never', '--debug'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('Measured on the nodes')
    expect(result.stdout).toContain('refused ^[]52;c;')
    expect(result.stdout).not.toMatch(RAW)
    // --debug names the bundle folder, whose name carries the same escapes.
    expect(result.stderr).toContain('debug: bundle:')
    expect(result.stderr).not.toMatch(RAW)
  })
})
