import { wordlist } from '@scure/bip39/wordlists/english.js'
import type { KubeObject, Snapshot } from './types.js'
import { KEY_SEARCH_FILE, logFile, PROBES_FILE, resourceFile } from './bundle-paths.js'

export const MASK = '[REDACTED]'
/** Where a redaction is counted when the caller did not say which file it was masking. */
const UNATTRIBUTED = '(unattributed)'

const SENSITIVE_NAME = /token|secret|passw|mnemonic|private[_-]?key|priv[_-]?key|api[_-]?key|access[_-]?key|credential/i
const BIP39 = new Set(wordlist)
const MNEMONIC_MIN_WORDS = 12

/**
 * What url-password's pattern needs from "://" on, without the scheme before it: a config.toml holds "tcp://" addresses
 * and peers' "id@host" far apart, and the full pattern tries a scheme at every word of it.
 */
const URL_WITH_PASSWORD = /:\/\/[^\s/?#@:"'<>]{0,256}:[^\s/?#@"'<>]{1,256}@/
/**
 * Patterns for secrets that show up in logs and free text; each keeps enough context to read the line.
 * Each comes with a cheap guard: most strings hold none of them, and a run reads hundreds of kilobytes
 * of logs, so a pattern's full scan happens only where its marker occurs. Every pattern is linear in the
 * text: no quantifier inside another, runs started only where a run begins (a lookbehind of one
 * character), bounded counts where a part could repeat, and X{n}X* for "n or more" (V8 backtracks X{n,}
 * through a stack that a 10 MB run overflows) (test/unit/redact-linear.test.ts, bench/redact.ts).
 * PEM blocks and validator keys, which span lines, are masked by maskBlocks below.
 */
const PATTERNS: [name: string, guard: (text: string) => boolean, RegExp, string | ((...groups: string[]) => string)][] = [
  ['vault-token', (t) => t.includes('hv'), /(?<![A-Za-z0-9_-])hv[sbr]\.[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*/g, MASK],
  ['vault-token-legacy', (t) => t.includes('s.') || t.includes('b.'), /(?<![A-Za-z0-9_])[sb]\.[A-Za-z0-9]{24}[A-Za-z0-9]*\b/g, MASK],
  [
    'jwt',
    (t) => t.includes('eyJ'),
    // Each part taken whole in a lookahead (atomic in JavaScript), so a long run without its dot is not backtracked into.
    /(?<![A-Za-z0-9_-])eyJ(?=([A-Za-z0-9_-]*))\1\.(?=([A-Za-z0-9_-]*))\2\.(?=([A-Za-z0-9_-]*))\3/g,
    (match, header, payload, signature) => (header.length >= 5 && payload.length >= 5 && signature.length >= 5 ? MASK : match),
  ],
  [
    'authorization-header',
    (t) => t.includes('Bearer') || t.includes('Basic'),
    /\b(Bearer|Basic)[ \t]{1,16}[A-Za-z0-9._~+/-]{8}[A-Za-z0-9._~+/-]*=*/g,
    (_m, scheme) => `${scheme} ${MASK}`,
  ],
  ['aws-access-key', (t) => t.includes('AKIA'), /\bAKIA[0-9A-Z]{16}\b/g, MASK],
  // A password in a URL's userinfo (https://user:pw@host, postgres://u:pw@db): the user stays readable.
  [
    'url-password',
    (t) => t.includes('://') && URL_WITH_PASSWORD.test(t),
    /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s/?#@:"'<>]{0,256}:)([^\s/?#@"'<>]{1,256})@/gi,
    (_m, head) => `${head}${MASK}@`,
  ],
  [
    'secret-assignment',
    (t) => SECRET_KEYWORD.test(t),
    // The key may carry a prefix (authToken, db_password): matching the keyword wherever it occurs takes it in
    // without a scan back over the prefix.
    /(token|secret|password|passwd|api[_-]?key|access[_-]?key|private[_-]?key|mnemonic)(["']?[ \t]{0,16}[:=][ \t]{0,16}["']?)([^\s"',}&]{8}[^\s"',}&]*)/gi,
    (match, key, sep, value) => (/\d/.test(value) || /^[A-Za-z0-9+/=_.-]{16,}$/.test(value) ? `${key}${sep}${MASK}` : match),
  ],
]
/** Every pattern redaction runs, for test/unit/redact-linear.test.ts to lint. */
export const REDACTION_PATTERNS = (): RegExp[] => [
  ...PATTERNS.map(([, , pattern]) => pattern),
  PEM_MARKER,
  PEM_BODY_LINE,
  PRIV_KEY_OPEN,
  CUT_KEY_START,
  WORD_RUN_START,
  URL_WITH_PASSWORD,
]
const SECRET_KEYWORD = /token|secret|passw|api[_-]?key|access[_-]?key|private[_-]?key|mnemonic/i
/**
 * Every guard's marker in one pattern: a field value (names, ids, timestamps) is tested once instead of
 * once per guard. Case-insensitive, so it lets through a little more than the guards do, never less.
 */
const ANY_MARKER =
  /PRIVATE KEY-----|"priv_key"|PrivKey|"value"|hv|[sb]\.|eyJ|Bearer|Basic|AKIA|:\/\/|token|secret|passw|api[_-]?key|access[_-]?key|private[_-]?key|mnemonic/i
/** Up to this length one combined test beats the separate guards; longer texts (logs) hold some marker anyway. */
const SHORT_TEXT = 2048
/** No pattern matches fewer characters than this; most label values and names are shorter. */
const SHORTEST_SECRET = 14
/** Twelve words of at least three letters and the blanks between them. */
const SHORTEST_MNEMONIC = MNEMONIC_MIN_WORDS * 4 - 1

/**
 * Where a multi-line block is when a text (a log, or one chunk of a followed log) ends: inside a PEM body
 * whose END has not come yet, or inside a validator key's "priv_key" object. A followed log keeps one state
 * across its chunks, so a block cut in two is masked whole; a text read on its own starts with none.
 */
export interface BlockState {
  pem: boolean
  /** Lines of a "priv_key" object still to mask (its closing brace ends it sooner). */
  privKeyLines: number
  /** Past the first chunk: only a log's first line can be one cut inside a key object. */
  started?: boolean
}

const PEM_MARKER = /-----(BEGIN|END) [A-Z0-9 ]{0,40}PRIVATE KEY-----/g
/** A line of a PEM body (base64, or a Proc-Type/DEK-Info header), with kubectl's timestamp prefix if present. */
const PEM_BODY_LINE = /^(?:\d{4}-\d\d-\d\dT[\d:.]{8,20}Z )?[\t ]*(?:[A-Za-z0-9+/]{1,128}={0,2}|(?:Proc-Type|DEK-Info): [^\n]{0,200})?[\t \r]*$/
const PRIV_KEY_OPEN = /"priv_key"[ \t\r\n]{0,64}:[ \t\r\n]{0,64}\{/g
/** The first line of a text cut inside a validator key object: the private key's type, or a long key value. */
const CUT_KEY_START =
  /^(?:\d{4}-\d\d-\d\dT[\d:.]{8,20}Z )?[\t ]*(?:"type"[ \t]{0,16}:[ \t]{0,16}"[A-Za-z0-9/_.-]{0,80}PrivKey[A-Za-z0-9_.-]{0,40}"|"value"[ \t]{0,16}:[ \t]{0,16}"[A-Za-z0-9+/=]{40,200}")/
/** A validator key object is a few lines; a state left open by a missing brace ends after these. */
const PRIV_KEY_MAX_LINES = 8

const isPemBodyLine = (line: string) => line.length <= 300 && PEM_BODY_LINE.test(line)

/** Each non-blank line of a masked region becomes the mask, so a log keeps its line count. */
const maskRegion = (region: string) => (region.includes('\n') ? region.replace(/[^\n]*\S[^\n]*/g, MASK) : region.trim() === '' ? region : MASK)

/**
 * Keys whose value is the name of a Secret, not its content (cosmopilot's privateKeySecret, raftTLSSecret,
 * credentialsSecret; *SecretName, *SecretRef): the name is what one needs to see, and no command reads Secrets.
 */
const SECRET_REFERENCE = /^(?:privateKeySecret|raftTLSSecret|credentialsSecret|[A-Za-z]+Secret(?:Name|Ref))$/

/** Whether values under this key are masked whole; the same few hundred keys recur in every object. */
function sensitiveKey(key: string): boolean {
  let sensitive = SENSITIVE_KEYS.get(key)
  if (sensitive === undefined) {
    sensitive = SENSITIVE_NAME.test(key) && !/^(?:tokenFile|secretName|secretKeyRef|pubKey|publicKey)$/i.test(key) && !SECRET_REFERENCE.test(key)
    SENSITIVE_KEYS.set(key, sensitive)
  }
  return sensitive
}
const SENSITIVE_KEYS = new Map<string, boolean>()

export class Redactor {
  /** Redactions by bundle file and pattern name: counts only, never the values (manifest.json redactionsByFile). */
  readonly tally = new Map<string, Map<string, number>>()
  private file = UNATTRIBUTED

  /** Redactions made, in every file. */
  get count(): number {
    let total = 0
    for (const patterns of this.tally.values()) for (const n of patterns.values()) total += n
    return total
  }

  /** Mask with what `mask` does counted against `file` (a bundle file: resources/ns/Pod.json, logs/ns/pod/app.log). */
  in<T>(file: string, mask: () => T): T {
    const outer = this.file
    this.file = file
    try {
      return mask()
    } finally {
      this.file = outer
    }
  }

  /** The tally as plain data, files and patterns sorted: { file: { pattern: count } }. */
  byFile(): Record<string, Record<string, number>> {
    const files = [...this.tally.keys()].sort()
    return Object.fromEntries(files.map((file) => [file, Object.fromEntries([...this.tally.get(file)!].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))]))
  }

  private counted(pattern: string): void {
    let patterns = this.tally.get(this.file)
    if (!patterns) this.tally.set(this.file, (patterns = new Map()))
    patterns.set(pattern, (patterns.get(pattern) ?? 0) + 1)
  }

  /** Mask one text on its own: a block cut at either end (by --tail, say) is masked as far as it goes. */
  text(input: string, state: BlockState = { pem: false, privKeyLines: 0 }): string {
    const open = state.pem || state.privKeyLines > 0
    const first = !state.started
    state.started = true
    if (input.length < SHORTEST_SECRET && !open) return input
    if (input.length <= SHORT_TEXT && !open && !ANY_MARKER.test(input)) return this.seedPhrases(input)
    let out = this.maskBlocks(input, state, first)
    for (const [name, guard, pattern, replacement] of PATTERNS) {
      if (!guard(out)) continue
      out = out.replace(pattern, (...args) => {
        const replaced = typeof replacement === 'string' ? replacement : replacement(...(args.slice(0, -2) as string[]))
        if (replaced !== args[0]) this.counted(name)
        return replaced
      })
    }
    return this.seedPhrases(out)
  }

  /** A masker for one log read in chunks (logs -f): blocks cut between chunks are masked whole. */
  stream(): (chunk: string) => string {
    const state: BlockState = { pem: false, privKeyLines: 0 }
    return (chunk) => this.text(chunk, state)
  }

  /** PEM private keys and validator keys ("priv_key" objects), which span lines: masked in linear time. */
  private maskBlocks(text: string, state: BlockState, first: boolean): string {
    let out = text
    if (state.pem || out.includes('PRIVATE KEY-----')) out = this.maskPem(out, state)
    if (state.privKeyLines > 0 || out.includes('"priv_key"') || out.includes('PrivKey') || out.includes('"value"')) out = this.maskPrivKeys(out, state, first)
    return out
  }

  private maskPem(text: string, state: BlockState): string {
    const parts: string[] = []
    let done = 0
    // Where the body of an open block starts (0: it began in an earlier chunk), or -1 outside a block.
    let bodyStart = state.pem ? 0 : -1
    const mask = (from: number, to: number) => {
      if (to <= from) return
      parts.push(text.slice(done, from), maskRegion(text.slice(from, to)))
      done = to
      this.counted('pem-private-key')
    }
    PEM_MARKER.lastIndex = 0
    for (let marker = PEM_MARKER.exec(text); marker; marker = PEM_MARKER.exec(text)) {
      if (marker.index < done) continue
      if (marker[1] === 'BEGIN') {
        if (bodyStart === -1) bodyStart = marker.index + marker[0].length
      } else if (bodyStart !== -1) {
        mask(bodyStart, marker.index)
        bodyStart = -1
      } else {
        // An END whose BEGIN was cut off: the body lines just before it.
        mask(Math.max(done, this.bodyBefore(text, marker.index)), marker.index)
      }
    }
    state.pem = false
    if (bodyStart !== -1) {
      // A BEGIN whose END has not come: its body runs while lines look like one, maybe into the next chunk.
      const end = this.bodyAfter(text, bodyStart)
      mask(bodyStart, end)
      state.pem = end === text.length
    }
    return done === 0 ? text : parts.join('') + text.slice(done)
  }

  /** Where the PEM body lines that end at `end` begin (the line's own text before `end` included). */
  private bodyBefore(text: string, end: number): number {
    let start = text.lastIndexOf('\n', end - 1) + 1
    if (!isPemBodyLine(text.slice(start, end))) return end
    while (start > 0) {
      // text[start - 1] is the line break before this line; the line before it starts after the break before that.
      const lineEnd = start - 1
      const previous = lineEnd === 0 ? 0 : text.lastIndexOf('\n', lineEnd - 1) + 1
      if (!isPemBodyLine(text.slice(previous, lineEnd))) break
      start = previous
    }
    return start
  }

  /** Where the PEM body lines that start at `start` end (the end of the text if they reach it). */
  private bodyAfter(text: string, start: number): number {
    let lineEnd = text.indexOf('\n', start)
    // The rest of the BEGIN line is part of the block whatever it holds.
    if (lineEnd === -1) return text.length
    for (;;) {
      const next = text.indexOf('\n', lineEnd + 1)
      const line = text.slice(lineEnd + 1, next === -1 ? text.length : next)
      if (!isPemBodyLine(line)) return lineEnd
      if (next === -1) return text.length
      lineEnd = next
    }
  }

  private maskPrivKeys(text: string, state: BlockState, first: boolean): string {
    let out = text
    let from = 0
    if (state.privKeyLines > 0) {
      // The object began in an earlier chunk: mask up to its closing brace, or a few lines at most.
      const close = out.indexOf('}')
      const lines = (close === -1 ? out : out.slice(0, close)).split('\n').length
      const end = close !== -1 && lines <= state.privKeyLines ? close : nthLineEnd(out, state.privKeyLines)
      state.privKeyLines = close !== -1 && end === close ? 0 : Math.max(0, state.privKeyLines - lines)
      const head = maskRegion(out.slice(0, end))
      this.counted('validator-private-key')
      out = head + out.slice(end)
      from = head.length
    } else if (first) {
      // A text cut inside a key object: its first line is the private key's type or value.
      const firstLineEnd = out.indexOf('\n')
      const first = firstLineEnd === -1 ? out : out.slice(0, firstLineEnd)
      if (first.length <= 400 && CUT_KEY_START.test(first)) {
        const close = out.indexOf('}')
        const end = close !== -1 && close < 1024 ? close : firstLineEnd === -1 ? out.length : firstLineEnd
        out = maskRegion(out.slice(0, end)) + out.slice(end)
        this.counted('validator-private-key')
      }
    }
    if (!out.includes('"priv_key"')) return out
    const parts: string[] = []
    let done = 0
    PRIV_KEY_OPEN.lastIndex = from
    for (let open = PRIV_KEY_OPEN.exec(out); open; open = PRIV_KEY_OPEN.exec(out)) {
      if (open.index < done) continue
      const close = out.indexOf('}', open.index + open[0].length)
      const key = open[0].slice(0, -1)
      this.counted('validator-private-key')
      if (close === -1) {
        // The object goes on past this text: mask what there is of it, and the next lines of a followed log.
        parts.push(out.slice(done, open.index), `${key}{`, maskRegion(out.slice(open.index + open[0].length)))
        done = out.length
        state.privKeyLines = PRIV_KEY_MAX_LINES
        break
      }
      parts.push(out.slice(done, open.index), `${key}"${MASK}"`)
      done = close + 1
      PRIV_KEY_OPEN.lastIndex = done
    }
    return done === 0 ? out : parts.join('') + out.slice(done)
  }

  /**
   * Runs of 12 or more BIP-39 words in a row, separated by blanks, are treated as a seed phrase. A pattern
   * of bounded work per start (twelve words of 3 to 8 lowercase letters, a fixed count) finds where such a
   * run begins; a plain loop follows the run to its end, and only its words are looked up in the word list.
   */
  private seedPhrases(text: string): string {
    if (text.length < SHORTEST_MNEMONIC) return text
    const runs: [number, number][] = []
    WORD_RUN_START.lastIndex = 0
    for (let match = WORD_RUN_START.exec(text); match; match = WORD_RUN_START.exec(text)) {
      const end = wordRunEnd(text, match.index)
      runs.push(...this.bip39Runs(text, match.index, end))
      WORD_RUN_START.lastIndex = end
    }
    if (runs.length === 0) return text
    const parts: string[] = []
    let done = 0
    for (const [start, end] of runs) {
      this.counted('mnemonic')
      parts.push(text.slice(done, start), MASK)
      done = end
    }
    return parts.join('') + text.slice(done)
  }

  /** Within a run of word-shaped words, the stretches of 12 or more that are all BIP-39 words. */
  private bip39Runs(text: string, from: number, to: number): [number, number][] {
    const runs: [number, number][] = []
    let start = -1
    let last = -1
    let words = 0
    for (let i = from; i < to;) {
      if (!isLower(text.charCodeAt(i))) {
        i++
        continue
      }
      const end = wordEnd(text, i)
      if (BIP39.has(text.slice(i, end))) {
        if (words === 0) start = i
        words++
        last = end
      } else {
        if (words >= MNEMONIC_MIN_WORDS) runs.push([start, last])
        words = 0
      }
      i = end
    }
    if (words >= MNEMONIC_MIN_WORDS) runs.push([start, last])
    return runs
  }

  /**
   * Walk any JSON value; values under sensitive names (env entries, annotation keys) are masked whole.
   * What needs no mask is returned as it is, not copied: a snapshot is mostly clean. Objects as deep as any
   * Kubernetes object are walked by plain recursion, which allocates nothing per field (a short command masks a
   * megabyte of lists before V8 has optimised anything, and the walk with its own stack cost it a tenth of its CPU);
   * below RECURSION_DEPTH the walk keeps its own stack, so a bundle nested 100,000 deep costs memory in
   * proportion, not the call stack.
   */
  value<T>(input: T): T {
    return this.walk(input, 0) as T
  }

  private walk(input: unknown, depth: number): unknown {
    if (typeof input === 'string') return this.text(input)
    if (!input || typeof input !== 'object') return input
    if (depth >= RECURSION_DEPTH) return this.walkDeep(input)
    if (Array.isArray(input)) {
      let copy: unknown[] | undefined
      for (let i = 0; i < input.length; i++) {
        const masked = this.walk(input[i], depth + 1)
        if (masked !== input[i]) (copy ??= [...input])[i] = masked
      }
      return copy ?? input
    }
    const obj = input as Record<string, unknown>
    if (typeof obj.name === 'string' && typeof obj.value === 'string' && SENSITIVE_NAME.test(obj.name) && obj.value !== '') {
      this.counted('sensitive-env-value')
      return { ...obj, value: MASK }
    }
    let copy: Record<string, unknown> | undefined
    for (const key of Object.keys(obj)) {
      const child = obj[key]
      let masked: unknown
      if (typeof child === 'string') {
        if (child !== '' && sensitiveKey(key)) {
          this.counted('sensitive-field')
          masked = MASK
        } else masked = this.text(child)
      } else masked = this.walk(child, depth + 1)
      // Defined, not assigned: a key named __proto__ from a bundle stays a plain key.
      if (masked !== child) Object.defineProperty((copy ??= { ...obj }), key, { value: masked, writable: true, enumerable: true, configurable: true })
    }
    return copy ?? obj
  }

  /** value's walk with its own stack, for what lies deeper than RECURSION_DEPTH. */
  private walkDeep<T>(input: T): T {
    if (!input || typeof input !== 'object') return input
    interface Frame {
      source: Record<string, unknown> | unknown[]
      keys: string[]
      next: number
      copy?: Record<string, unknown> | unknown[]
    }
    const frameOf = (source: Record<string, unknown> | unknown[]): Frame => ({ source, keys: Array.isArray(source) ? [] : Object.keys(source), next: 0 })
    const stack: Frame[] = [frameOf(input as Record<string, unknown>)]
    let result: unknown
    // A child's result comes back here; the parent stores it once it resumes.
    let returned: { value: unknown } | undefined
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]
      const array = Array.isArray(frame.source)
      const size = array ? (frame.source as unknown[]).length : frame.keys.length
      if (returned) {
        const key = array ? frame.next : frame.keys[frame.next]
        const original = (frame.source as Record<string | number, unknown>)[key]
        if (returned.value !== original) {
          frame.copy ??= array ? [...(frame.source as unknown[])] : { ...frame.source }
          // Defined, not assigned: a key named __proto__ from a bundle stays a plain key.
          Object.defineProperty(frame.copy, key, { value: returned.value, writable: true, enumerable: true, configurable: true })
        }
        returned = undefined
        frame.next++
      } else if (frame.next === 0 && !array) {
        const obj = frame.source as Record<string, unknown>
        if (typeof obj.name === 'string' && typeof obj.value === 'string' && SENSITIVE_NAME.test(obj.name) && obj.value !== '') {
          this.counted('sensitive-env-value')
          stack.pop()
          returned = { value: { ...obj, value: MASK } }
          if (stack.length === 0) result = returned.value
          continue
        }
      }
      if (frame.next >= size) {
        stack.pop()
        const value = frame.copy ?? frame.source
        if (stack.length === 0) result = value
        else returned = { value }
        continue
      }
      const key = array ? frame.next : frame.keys[frame.next]
      const child = (frame.source as Record<string | number, unknown>)[key]
      if (child && typeof child === 'object') {
        stack.push(frameOf(child as Record<string, unknown>))
        continue
      }
      let masked: unknown = child
      if (typeof child === 'string') {
        if (!array && child !== '' && sensitiveKey(key as string)) {
          this.counted('sensitive-field')
          masked = MASK
        } else masked = this.text(child)
      }
      returned = { value: masked }
    }
    return result as T
  }
}

/** Deeper than any Kubernetes object or CometBFT answer nests, and far from the call stack's limit. */
const RECURSION_DEPTH = 200
const isLower = (code: number) => code >= 0x61 && code <= 0x7a
const isBlank = (code: number) => code === 0x20 || code === 0x09
/** Twelve words of three to eight lowercase letters (BIP-39's lengths) in a row: where a seed phrase could start. */
const WORD_RUN_START = new RegExp(`(?<![a-z])[a-z]{3,8}(?:[ \\t]{1,64}[a-z]{3,8}){${MNEMONIC_MIN_WORDS - 1}}(?![a-z])`, 'g')
/** Where a run of such words, starting at `start`, ends. */
function wordRunEnd(text: string, start: number): number {
  let end = start
  for (let i = start; ;) {
    const wordEndAt = wordEnd(text, i)
    if (wordEndAt - i < 3 || wordEndAt - i > 8) return end
    end = wordEndAt
    let next = end
    while (next < text.length && isBlank(text.charCodeAt(next))) next++
    if (next === end || next - end > 64 || next >= text.length || !isLower(text.charCodeAt(next))) return end
    i = next
  }
}
function wordEnd(text: string, start: number): number {
  let end = start + 1
  while (end < text.length && isLower(text.charCodeAt(end))) end++
  return end
}
/** The index of the end of the text's nth line (its newline), or the text's end. */
function nthLineEnd(text: string, lines: number): number {
  let at = -1
  for (let n = 0; n < lines; n++) {
    at = text.indexOf('\n', at + 1)
    if (at === -1) return text.length
  }
  return at
}

/** Mask secrets in everything a snapshot carries. Secret objects themselves are never collected. */
export function redactSnapshot(snapshot: Snapshot): Snapshot {
  const redactor = new Redactor()
  const objects = snapshot.objects.map((obj) => redactor.in(resourceFile(obj), () => redactor.value<KubeObject>(obj)))
  const logs = snapshot.logs.map((log) => ({ ...log, text: redactor.in(logFile(log), () => redactor.text(log.text)) }))
  const probes = redactor.in(PROBES_FILE, () => snapshot.probes.map((probe) => ({ ...probe, detail: redactor.text(probe.detail) })))
  const search = snapshot.keySearch
  const keySearch = search && {
    ...search,
    nodes: redactor.in(KEY_SEARCH_FILE, () => search.nodes.map((obj) => redactor.value<KubeObject>(obj))),
    probes: redactor.in(KEY_SEARCH_FILE, () => search.probes.map((probe) => ({ ...probe, detail: redactor.text(probe.detail) }))),
  }
  return {
    ...snapshot,
    objects,
    logs,
    probes,
    ...(keySearch ? { keySearch } : {}),
    redactions: snapshot.redactions + redactor.count,
    redactionsByFile: addTallies(snapshot.redactionsByFile ?? {}, redactor.byFile()),
  }
}

/** Two tallies of redactions by file and pattern, added up. */
export function addTallies(a: Record<string, Record<string, number>>, b: Record<string, Record<string, number>>): Record<string, Record<string, number>> {
  const out = new Map<string, Map<string, number>>()
  for (const tally of [a, b])
    for (const [file, patterns] of Object.entries(tally)) {
      const into = out.get(file) ?? new Map<string, number>()
      out.set(file, into)
      for (const [pattern, n] of Object.entries(patterns)) into.set(pattern, (into.get(pattern) ?? 0) + n)
    }
  // Built from Maps: a file or pattern named __proto__ stays a key.
  return Object.fromEntries([...out].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([file, patterns]) => [file, Object.fromEntries(patterns)]))
}
