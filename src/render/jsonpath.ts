import { isJsonObject as isObject } from '../util/json-path.js'
import { usageError } from '../util/errors.js'

/**
 * kubectl's `-o jsonpath=TEMPLATE`: literal text with `{expression}` actions, `{range EXPR}…{end}`,
 * quoted text (`{"\t"}`), and the JSONPath steps kubectl documents (`.field`, `['field']`, `..field`,
 * `*`, `[n]`, `[start:end:step]`, unions, `[?(@.x == "y")]`). Our own parser, not an npm JSONPath
 * library: those evaluate plain JSONPath (no template text, no range/end, other output) and some run
 * filter scripts through an evaluator; kubectl's subset is small enough to keep exact and bounded.
 * Output as kubectl prints it: the values of one action space-separated, strings raw, maps and lists as
 * compact JSON with sorted keys, null as <nil>, a missing field as nothing (--allow-missing-template-keys).
 */

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'recursive' }
  | { kind: 'wildcard' }
  | { kind: 'slice'; start?: number; end?: number; step?: number }
  | { kind: 'indices'; indices: number[] }
  | { kind: 'union'; paths: Step[][] }
  | { kind: 'filter'; left: Step[]; operator?: string; right?: Operand }

type Operand = { kind: 'path'; steps: Step[] } | { kind: 'literal'; value: string | number | boolean }

type TemplateNode = { kind: 'text'; text: string } | { kind: 'path'; steps: Step[] } | { kind: 'range'; steps: Step[]; body: TemplateNode[] }

/** Values one template may produce before we stop: a stranger's object must not grow the output without bound. */
const MAX_VALUES = 1_000_000

/** Parse a template; a mistake is one line that says where, as a usage error (exit 2). */
export function parseJsonPathTemplate(template: string): TemplateNode[] {
  const root: TemplateNode[] = []
  const open: { body: TemplateNode[] }[] = [{ body: root }]
  let at = 0
  while (at < template.length) {
    const brace = template.indexOf('{', at)
    if (brace < 0) {
      open.at(-1)!.body.push({ kind: 'text', text: template.slice(at) })
      break
    }
    if (brace > at) open.at(-1)!.body.push({ kind: 'text', text: template.slice(at, brace) })
    const close = actionEnd(template, brace + 1)
    const action = template.slice(brace + 1, close).trim()
    at = close + 1
    if (action === 'end') {
      if (open.length === 1) throw bad(template, 'not in range, nothing to end')
      open.pop()
    } else if (/^range\s/.test(action)) {
      const node: TemplateNode = { kind: 'range', steps: parsePath(template, action.slice(5).trim()), body: [] }
      open.at(-1)!.body.push(node)
      open.push(node)
    } else if (/^(".*"|'.*')$/s.test(action)) {
      open.at(-1)!.body.push({ kind: 'text', text: unquote(template, action) })
    } else {
      open.at(-1)!.body.push({ kind: 'path', steps: parsePath(template, action) })
    }
  }
  if (open.length > 1) throw bad(template, 'range without end')
  return root
}

/** The text kubectl prints for the template over the document. */
export function renderJsonPath(template: string, document: unknown): string {
  const nodes = parseJsonPathTemplate(template)
  const out: string[] = []
  const budget = { values: 0 }
  const run = (body: TemplateNode[], current: unknown) => {
    for (const node of body) {
      if (node.kind === 'text') out.push(node.text)
      else if (node.kind === 'path') out.push(evaluate(template, node.steps, current, budget).map(textOf).join(' '))
      else for (const item of evaluate(template, node.steps, current, budget)) run(node.body, item)
    }
  }
  run(nodes, document)
  return out.join('')
}

const compiledRegexps = new Map<string, RegExp>()

/**
 * `=~`, compiled once per pattern however many items it is tried on. The pattern is the user's own, so it is a
 * JavaScript RegExp: RE2 (util/go-regexp.ts) would add its 190 KB to status's start for a rarely used filter.
 */
function regexpOf(template: string, pattern: string): RegExp {
  let compiled = compiledRegexps.get(pattern)
  if (!compiled) {
    try {
      compiled = new RegExp(pattern)
    } catch (error) {
      throw bad(template, `${JSON.stringify(pattern)} is not a regular expression (${(error as Error).message})`)
    }
    compiledRegexps.set(pattern, compiled)
  }
  return compiled
}

function bad(template: string, why: string) {
  return usageError(`-o jsonpath: ${why} in ${JSON.stringify(template)}`, "write it as kubectl takes it, e.g. -o jsonpath='{.items[*].metadata.name}'")
}

/** Where the action opened before `from` closes: quotes and brackets may hold a `}`. */
function actionEnd(template: string, from: number): number {
  const at = closingAt(template, from, '', '}', 1)
  if (at < 0) throw bad(template, 'unclosed action')
  return at
}

/** The index where the depth, counted over opening and closing characters outside quotes, returns to 0; -1 if never. */
function closingAt(text: string, from: number, opens: string, closes: string, depth: number): number {
  let quote = ''
  for (let i = from; i < text.length; i++) {
    const c = text[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (opens.includes(c)) depth++
    else if (closes.includes(c) && --depth === 0) return i
  }
  return -1
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '0': '\0' }

/** A quoted string as Go's strconv.Unquote reads the usual escapes. */
function unquote(template: string, quoted: string): string {
  return quoted.slice(1, -1).replace(/\\(.)/gs, (_, c: string) => {
    const char = ESCAPES[c]
    if (char === undefined) throw bad(template, `unknown escape \\${c}`)
    return char
  })
}

/** A path: optional $ or @, then steps. */
function parsePath(template: string, text: string): Step[] {
  const steps: Step[] = []
  let i = text.startsWith('$') || text.startsWith('@') ? 1 : 0
  const name = () => {
    const match = /^[^.[\]\s]+/.exec(text.slice(i))
    if (!match) throw bad(template, `a field name is missing at "${text.slice(i) || 'the end'}"`)
    i += match[0].length
    return match[0]
  }
  const fieldOrWildcard = (): Step => (text[i] === '*' ? (i++, { kind: 'wildcard' }) : { kind: 'field', name: name() })
  while (i < text.length) {
    if (text.startsWith('..', i)) {
      i += 2
      steps.push({ kind: 'recursive' })
      if (text[i] !== '[') steps.push(fieldOrWildcard())
    } else if (text[i] === '.') {
      i++
      if (text[i] !== '[') steps.push(fieldOrWildcard())
    } else if (text[i] === '[') {
      const close = bracketEnd(template, text, i)
      steps.push(parseBracket(template, text.slice(i + 1, close).trim()))
      i = close + 1
    } else throw bad(template, `unexpected "${text.slice(i)}"`)
  }
  return steps
}

function bracketEnd(template: string, text: string, from: number): number {
  const at = closingAt(text, from, '[(', '])', 0)
  if (at < 0) throw bad(template, 'unclosed [')
  return at
}

function parseBracket(template: string, inner: string): Step {
  if (inner === '*') return { kind: 'wildcard' }
  if (inner.startsWith('?')) return parseFilter(template, inner)
  if (/^-?\d*\s*:\s*-?\d*(\s*:\s*-?\d*)?$/.test(inner)) {
    const [start, end, step] = inner.split(':').map((p) => (p.trim() === '' ? undefined : Number(p)))
    return { kind: 'slice', start, end, step }
  }
  if (/^-?\d+(\s*,\s*-?\d+)*$/.test(inner)) return { kind: 'indices', indices: inner.split(',').map(Number) }
  // ['a'] or ['metadata.name', 'status.capacity']: each a path of fields; \. is a dot inside a name.
  const quoted = /\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*(?:,|$)/gy
  const paths: Step[][] = []
  let match: RegExpExecArray | null
  let consumed = 0
  while (consumed < inner.length && (match = quoted.exec(inner))) {
    consumed = quoted.lastIndex
    const names = match[1]
      .slice(1, -1)
      .split(/(?<!\\)\./)
      .map((n) => n.replace(/\\(.)/g, '$1'))
    paths.push(names.map((n) => ({ kind: 'field', name: n })))
  }
  if (!paths.length || consumed < inner.length) throw bad(template, `cannot read [${inner}]`)
  return { kind: 'union', paths }
}

const FILTER = /^\?\(\s*(@[^\s<>=!]*)\s*(?:(==|!=|<=|>=|<|>|=~)\s*(.+?))?\s*\)$/s

function parseFilter(template: string, inner: string): Step {
  const match = FILTER.exec(inner)
  if (!match) throw bad(template, `cannot read the filter [${inner}]`)
  const [, left, operator, right] = match
  if (!operator) return { kind: 'filter', left: parsePath(template, left) }
  return { kind: 'filter', left: parsePath(template, left), operator, right: parseOperand(template, right) }
}

function parseOperand(template: string, text: string): Operand {
  if (/^(".*"|'.*')$/s.test(text)) return { kind: 'literal', value: unquote(template, text) }
  if (/^-?\d+(\.\d+)?$/.test(text)) return { kind: 'literal', value: Number(text) }
  if (text === 'true' || text === 'false') return { kind: 'literal', value: text === 'true' }
  if (text.startsWith('@') || text.startsWith('$')) return { kind: 'path', steps: parsePath(template, text) }
  throw bad(template, `cannot compare with ${text}`)
}

/** Children in kubectl's order: list items in turn, map values by key (Go's map order is random; sorted is stable). */
const childrenOf = (v: unknown): unknown[] =>
  Array.isArray(v)
    ? v
    : isObject(v)
      ? Object.keys(v)
          .sort()
          .map((k) => v[k])
      : []

function evaluate(template: string, steps: readonly Step[], root: unknown, budget: { values: number }): unknown[] {
  return evaluateAll(template, steps, [root], budget)
}

/** Each step over every value so far; a union's members each over all of them, in turn, as kubectl's evalUnion. */
function evaluateAll(template: string, steps: readonly Step[], start: unknown[], budget: { values: number }): unknown[] {
  let values = start
  for (const step of steps) {
    values =
      step.kind === 'union'
        ? step.paths.flatMap((path) => evaluateAll(template, path, values, budget))
        : values.flatMap((v) => apply(template, step, v, budget))
    budget.values += values.length
    if (budget.values > MAX_VALUES) throw bad(template, `more than ${MAX_VALUES} values`)
  }
  return values
}

function apply(template: string, step: Exclude<Step, { kind: 'union' }>, value: unknown, budget: { values: number }): unknown[] {
  switch (step.kind) {
    case 'field':
      // Own properties only: a key named __proto__ is data.
      return isObject(value) && Object.hasOwn(value, step.name) ? [value[step.name]] : []
    case 'wildcard':
      return childrenOf(value)
    case 'recursive': {
      // Every object and list under the value, itself first, without recursion (a stranger's object may be deep).
      const found: unknown[] = []
      const stack = [value]
      while (stack.length) {
        const next = stack.pop()
        const children = childrenOf(next)
        if (!children.length) continue
        found.push(next)
        if (found.length > MAX_VALUES) throw bad(template, `more than ${MAX_VALUES} values`)
        for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
      }
      return found
    }
    case 'indices':
      return step.indices.flatMap((index) => sliceOf(template, value, { kind: 'slice', start: index, end: index === -1 ? undefined : index + 1 }, true))
    case 'slice':
      return sliceOf(template, value, step, false)
    case 'filter':
      if (!Array.isArray(value)) return []
      return value.filter((item) => passes(template, step, item, budget))
  }
}

/** kubectl's subscript: a negative index counts from the end; out of bounds is an error, as kubectl says it. */
function sliceOf(template: string, value: unknown, step: Extract<Step, { kind: 'slice' }>, single: boolean): unknown[] {
  if (value === null || value === undefined) return []
  if (!Array.isArray(value)) throw bad(template, 'a subscript applies to a list only')
  const length = value.length
  const start = step.start === undefined ? 0 : step.start < 0 ? step.start + length : step.start
  const end = step.end === undefined ? length : step.end < 0 ? step.end + length : step.end
  if (start === end && !single) return []
  if (start < 0 || start >= length) throw bad(template, `array index out of bounds: index ${step.start}, length ${length}`)
  if (end > length || end < start) throw bad(template, `array index out of bounds: index ${end - 1}, length ${length}`)
  const by = step.step ?? 1
  if (by <= 0) throw bad(template, 'step must be > 0')
  return value.slice(start, end).filter((_, i) => i % by === 0)
}

function passes(template: string, step: Extract<Step, { kind: 'filter' }>, item: unknown, budget: { values: number }): boolean {
  const lefts = evaluate(template, step.left, item, budget)
  if (!step.operator || !step.right) return lefts.length > 0
  const rights = step.right.kind === 'literal' ? [step.right.value] : evaluate(template, step.right.steps, item, budget)
  if (!lefts.length || !rights.length) return false
  if (lefts.length > 1 || rights.length > 1) throw bad(template, 'can only compare one element at a time')
  const [left, right] = [lefts[0], rights[0]]
  if (step.operator === '=~') {
    if (typeof left !== 'string' || typeof right !== 'string') throw bad(template, 'a regular expression matches text only')
    return regexpOf(template, right).test(left)
  }
  if (step.operator === '==') return left === right
  if (step.operator === '!=') return left !== right
  const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string')
  if (!comparable) throw bad(template, `cannot compare ${JSON.stringify(left)} with ${JSON.stringify(right)}`)
  const [a, b] = [left as number | string, right as number | string]
  return step.operator === '<' ? a < b : step.operator === '>' ? a > b : step.operator === '<=' ? a <= b : a >= b
}

/** A value as kubectl prints it: text raw, null as <nil>, maps and lists as Go's compact JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return '<nil>'
  if (typeof value !== 'object') return String(value)
  try {
    return goJson(value)
  } catch (error) {
    // Nesting deeper than the stack: a stranger's object, said as a value rather than a crash.
    if (error instanceof RangeError) return '<too deeply nested>'
    throw error
  }
}

/** Go's json.Marshal: map keys sorted, <, >, & and the line separators escaped. */
function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted(v[k])]),
          )
        : v
  return JSON.stringify(sorted(value)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
