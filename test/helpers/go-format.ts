import type { OperatorFormat } from '../fixtures/operator-messages.js'

/** How the operator's Go code renders its texts: fmt's verbs, and controllers.FormatErrorEvent for Events. */
/** Go's strconv.Quote for the printable ASCII our arguments use. */
export const goQuote = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`

/** fmt.Sprintf with the verbs the operator uses: %s %v %w %d %q (and %%). */
export function goSprintf(format: OperatorFormat): string {
  const args = [...(format.args ?? [])]
  const rendered = format.format.replace(/%([svwdq%])/g, (_whole, verb: string) => {
    if (verb === '%') return '%'
    const arg = args.shift()
    if (arg === undefined) throw new Error(`${format.file}:${format.line}: too few arguments for ${JSON.stringify(format.format)}`)
    const text = typeof arg === 'object' ? goSprintf(arg) : String(arg)
    return verb === 'q' ? goQuote(text) : text
  })
  if (args.length > 0) throw new Error(`${format.file}:${format.line}: ${args.length} argument(s) left over for ${JSON.stringify(format.format)}`)
  return rendered
}

/** controllers.FormatErrorEvent (internal/controllers/events.go) as v3.0.0 writes it. */
export function formatErrorEvent(context: string, error: string): string {
  const parts = error.split(':')
  let tail = parts.length > 3 ? parts.at(-1)!.trim() : error
  tail = tail.replace(/^error /, '').replace(/^failed to /, '')
  let message = `${context}: ${tail}`
    .replace(/[\n\r\t]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
  if (message.length > 256) message = message.slice(0, 253) + '...'
  return message
}
