import { wordlist } from '@scure/bip39/wordlists/english.js'
import type { KubeObject, Snapshot } from './types.js'

export const MASK = '[REDACTED]'

const SENSITIVE_NAME = /token|secret|passw|mnemonic|private[_-]?key|priv[_-]?key|api[_-]?key|access[_-]?key|credential/i
const BIP39 = new Set(wordlist)
const MNEMONIC_MIN_WORDS = 12

/** Patterns for secrets that show up in logs and free text; each keeps enough context to read the line. */
const PATTERNS: [RegExp, string | ((...groups: string[]) => string)][] = [
  [/(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----)/g, (_m, begin, end) => `${begin}${MASK}${end}`],
  [/("priv_key"\s*:\s*)\{[^}]*\}/g, (_m, key) => `${key}"${MASK}"`],
  [/\bhv[sbr]\.[A-Za-z0-9_-]{20,}/g, MASK],
  [/\b[sb]\.[A-Za-z0-9]{24,}\b/g, MASK],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, MASK],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{8,}=*/g, (_m, scheme) => `${scheme} ${MASK}`],
  [/\bAKIA[0-9A-Z]{16}\b/g, MASK],
  [
    /\b((?:[A-Za-z_]*)(?:token|secret|password|passwd|api[_-]?key|access[_-]?key|private[_-]?key|mnemonic))(["']?\s*[:=]\s*["']?)([^\s"',}&]{8,})/gi,
    (match, key, sep, value) => (/\d/.test(value) || /^[A-Za-z0-9+/=_.-]{16,}$/.test(value) ? `${key}${sep}${MASK}` : match),
  ],
]

export class Redactor {
  count = 0

  text(input: string): string {
    let out = input
    for (const [pattern, replacement] of PATTERNS) {
      out = out.replace(pattern, (...args) => {
        const replaced = typeof replacement === 'string' ? replacement : replacement(...(args.slice(0, -2) as string[]))
        if (replaced !== args[0]) this.count++
        return replaced
      })
    }
    return this.mnemonics(out)
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

  /** Walk any JSON value; values under sensitive names (env entries, annotation keys) are masked whole. */
  value<T>(input: T): T {
    if (typeof input === 'string') return this.text(input) as T
    if (Array.isArray(input)) return input.map((item) => this.value(item)) as T
    if (input && typeof input === 'object') {
      const obj = input as Record<string, unknown>
      if (typeof obj.name === 'string' && typeof obj.value === 'string' && SENSITIVE_NAME.test(obj.name) && obj.value !== '') {
        this.count++
        return { ...obj, value: MASK } as T
      }
      const out: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(obj)) {
        if (typeof value === 'string' && value !== '' && SENSITIVE_NAME.test(key) && !/^(?:tokenFile|secretName|secretKeyRef|pubKey|publicKey)$/i.test(key)) {
          this.count++
          out[key] = MASK
        } else out[key] = this.value(value)
      }
      return out as T
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
