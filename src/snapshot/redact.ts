import { wordlist } from '@scure/bip39/wordlists/english.js'
import type { KubeObject, Snapshot } from './types.js'

export const MASK = '[REDACTED]'

const SENSITIVE_NAME = /token|secret|passw|mnemonic|private[_-]?key|priv[_-]?key|api[_-]?key|access[_-]?key|credential/i
const BIP39 = new Set(wordlist)
const MNEMONIC_MIN_WORDS = 12

/**
 * Patterns for secrets that show up in logs and free text; each keeps enough context to read the line.
 * Each comes with a cheap guard: most strings hold none of them, and a run reads hundreds of kilobytes
 * of logs, so a pattern's full scan happens only where its marker occurs.
 */
const PATTERNS: [guard: (text: string) => boolean, RegExp, string | ((...groups: string[]) => string)][] = [
  [
    (t) => t.includes('PRIVATE KEY-----'),
    /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----)/g,
    (_m, begin, end) => `${begin}${MASK}${end}`,
  ],
  [(t) => t.includes('"priv_key"'), /("priv_key"\s*:\s*)\{[^}]*\}/g, (_m, key) => `${key}"${MASK}"`],
  [(t) => t.includes('hv'), /\bhv[sbr]\.[A-Za-z0-9_-]{20,}/g, MASK],
  [(t) => t.includes('s.') || t.includes('b.'), /\b[sb]\.[A-Za-z0-9]{24,}\b/g, MASK],
  [(t) => t.includes('eyJ'), /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, MASK],
  [(t) => t.includes('Bearer') || t.includes('Basic'), /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{8,}=*/g, (_m, scheme) => `${scheme} ${MASK}`],
  [(t) => t.includes('AKIA'), /\bAKIA[0-9A-Z]{16}\b/g, MASK],
  [
    (t) => SECRET_KEYWORD.test(t),
    // The key may carry a prefix (authToken, db_password): the lookbehind accepts one without
    // making the scan try a prefix at every word.
    /(?<=(?:^|\W)[A-Za-z_]*)(token|secret|password|passwd|api[_-]?key|access[_-]?key|private[_-]?key|mnemonic)(["']?\s*[:=]\s*["']?)([^\s"',}&]{8,})/gi,
    (match, key, sep, value) => (/\d/.test(value) || /^[A-Za-z0-9+/=_.-]{16,}$/.test(value) ? `${key}${sep}${MASK}` : match),
  ],
]
const SECRET_KEYWORD = /token|secret|passw|api[_-]?key|access[_-]?key|private[_-]?key|mnemonic/i
/**
 * Every guard's marker in one pattern: a field value (names, ids, timestamps) is tested once instead of
 * once per guard. Case-insensitive, so it lets through a little more than the guards do, never less.
 */
const ANY_MARKER = /PRIVATE KEY-----|"priv_key"|hv|[sb]\.|eyJ|Bearer|Basic|AKIA|token|secret|passw|api[_-]?key|access[_-]?key|private[_-]?key|mnemonic/i
/** Up to this length one combined test beats the separate guards; longer texts (logs) hold some marker anyway. */
const SHORT_TEXT = 2048
/** No pattern matches fewer characters than this; most label values and names are shorter. */
const SHORTEST_SECRET = 14
/** Twelve words of at least three letters and the blanks between them. */
const SHORTEST_MNEMONIC = MNEMONIC_MIN_WORDS * 4 - 1
/** Twelve or more words of three to eight lowercase letters in a row (BIP-39's lengths): where a seed phrase could be. */
const WORD_RUN = new RegExp(`(?<![a-z])(?:[a-z]{3,8}[ \\t]+){${MNEMONIC_MIN_WORDS - 1},}[a-z]{3,8}(?![a-z])`, 'g')

/** Whether values under this key are masked whole; the same few hundred keys recur in every object. */
function sensitiveKey(key: string): boolean {
  let sensitive = SENSITIVE_KEYS.get(key)
  if (sensitive === undefined) {
    sensitive = SENSITIVE_NAME.test(key) && !/^(?:tokenFile|secretName|secretKeyRef|pubKey|publicKey)$/i.test(key)
    SENSITIVE_KEYS.set(key, sensitive)
  }
  return sensitive
}
const SENSITIVE_KEYS = new Map<string, boolean>()

export class Redactor {
  count = 0

  text(input: string): string {
    if (input.length < SHORTEST_SECRET) return input
    let out = input
    if (input.length <= SHORT_TEXT && !ANY_MARKER.test(input)) return this.seedPhrases(input)
    for (const [guard, pattern, replacement] of PATTERNS) {
      if (!guard(out)) continue
      out = out.replace(pattern, (...args) => {
        const replaced = typeof replacement === 'string' ? replacement : replacement(...(args.slice(0, -2) as string[]))
        if (replaced !== args[0]) this.count++
        return replaced
      })
    }
    return this.seedPhrases(out)
  }

  private seedPhrases(text: string): string {
    return text.length < SHORTEST_MNEMONIC ? text : text.replace(WORD_RUN, (run) => this.mnemonics(run))
  }

  /** Runs of 12 or more BIP-39 words in a row are treated as a seed phrase. */
  private mnemonics(input: string): string {
    const words = [...input.matchAll(/[a-z]+/g)]
    let runStart = -1
    const runs: [number, number][] = []
    for (let i = 0; i <= words.length; i++) {
      const word = words[i]
      const continues =
        word && BIP39.has(word[0]) && (runStart === -1 || /^[ \t]+$/.test(input.slice(words[i - 1].index! + words[i - 1][0].length, word.index)))
      if (continues && runStart === -1) runStart = i
      else if (!continues) {
        if (runStart !== -1 && i - runStart >= MNEMONIC_MIN_WORDS) runs.push([words[runStart].index!, words[i - 1].index! + words[i - 1][0].length])
        runStart = word && BIP39.has(word[0]) ? i : -1
      }
    }
    let out = input
    for (const [start, end] of runs.reverse()) {
      this.count++
      out = `${out.slice(0, start)}${MASK}${out.slice(end)}`
    }
    return out
  }

  /**
   * Walk any JSON value; values under sensitive names (env entries, annotation keys) are masked whole.
   * What needs no mask is returned as it is, not copied: a snapshot is mostly clean.
   */
  value<T>(input: T): T {
    if (typeof input === 'string') return this.text(input) as T
    if (Array.isArray(input)) {
      let out: unknown[] | undefined
      for (let i = 0; i < input.length; i++) {
        const masked = this.value(input[i])
        if (masked !== input[i]) (out ??= [...input])[i] = masked
      }
      return (out ?? input) as T
    }
    if (input && typeof input === 'object') {
      const obj = input as Record<string, unknown>
      if (typeof obj.name === 'string' && typeof obj.value === 'string' && SENSITIVE_NAME.test(obj.name) && obj.value !== '') {
        this.count++
        return { ...obj, value: MASK } as T
      }
      let out: Record<string, unknown> | undefined
      for (const key in obj) {
        const value = obj[key]
        let masked: unknown
        if (typeof value === 'string' && value !== '' && sensitiveKey(key)) {
          this.count++
          masked = MASK
        } else masked = this.value(value)
        if (masked !== value) (out ??= { ...obj })[key] = masked
      }
      return (out ?? obj) as T
    }
    return input
  }
}

/** Mask secrets in everything a snapshot carries. Secret objects themselves are never collected. */
export function redactSnapshot(snapshot: Snapshot): Snapshot {
  const redactor = new Redactor()
  const objects = snapshot.objects.map((obj) => redactor.value<KubeObject>(obj))
  const logs = snapshot.logs.map((log) => ({ ...log, text: redactor.text(log.text) }))
  const probes = snapshot.probes.map((probe) => ({ ...probe, detail: redactor.text(probe.detail) }))
  return { ...snapshot, objects, logs, probes, redactions: snapshot.redactions + redactor.count }
}
