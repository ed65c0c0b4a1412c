import { usageError } from '../util/errors.js'

/**
 * kubectl's -l syntax: `k=v`, `k==v`, `k!=v`, `k`, `!k`, `k in (a,b)`, `k notin (a,b)`, joined by commas
 * (all must hold).
 */
export function parseLabelSelector(text: string): LabelSelector {
  const selector: Required<LabelSelector> = { matchLabels: {}, matchExpressions: [] }
  // Commas inside "in (a,b)" do not separate requirements.
  const parts = text.split(/,(?![^(]*\))/).map((p) => p.trim())
  const bad = () => usageError(`--selector "${text}" is not a label selector`, 'e.g. -l validator=true or -l "chain-id in (cosmoshub-4,theta-testnet-001)"')
  if (parts.length === 0 || parts.some((p) => p === '')) throw bad()
  const key = '([A-Za-z0-9][-A-Za-z0-9_./]*)'
  for (const part of parts) {
    let m: RegExpExecArray | null
    if ((m = new RegExp(`^${key}\\s*(==|=|!=)\\s*([-A-Za-z0-9_.]*)$`).exec(part))) {
      if (m[2] === '!=') selector.matchExpressions.push({ key: m[1], operator: 'NotIn', values: [m[3]] })
      // Defined, not assigned: `matchLabels["__proto__"] = v` would set the object's prototype, not a label.
      else Object.defineProperty(selector.matchLabels, m[1], { value: m[3], enumerable: true, writable: true, configurable: true })
    } else if ((m = new RegExp(`^${key}\\s+(in|notin)\\s*\\(([^)]*)\\)$`).exec(part))) {
      const values = m[3].split(',').map((v) => v.trim())
      selector.matchExpressions.push({ key: m[1], operator: m[2] === 'in' ? 'In' : 'NotIn', values })
    } else if ((m = new RegExp(`^(!?)${key}$`).exec(part))) {
      selector.matchExpressions.push({ key: m[2], operator: m[1] ? 'DoesNotExist' : 'Exists' })
    } else throw bad()
  }
  return selector
}

/** The -l text as given, once it is known to parse (the command line's check; the flag keeps its text). */
export function checkedLabelSelector(text: string): string {
  parseLabelSelector(text)
  return text
}

export interface LabelSelector {
  matchLabels?: Record<string, string>
  matchExpressions?: { key: string; operator: string; values?: string[] }[]
}

export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false
  // Own labels only: `key in labels` holds for "constructor" and "toString" on every object (-l constructor).
  const own = (key: string) => (Object.hasOwn(labels, key) ? labels[key] : undefined)
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (own(key) !== value) return false
  for (const expr of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, expr.key)
    const value = own(expr.key) ?? ''
    const values = expr.values ?? []
    if (expr.operator === 'In' && !(has && values.includes(value))) return false
    if (expr.operator === 'NotIn' && has && values.includes(value)) return false
    if (expr.operator === 'Exists' && !has) return false
    if (expr.operator === 'DoesNotExist' && has) return false
  }
  return true
}
