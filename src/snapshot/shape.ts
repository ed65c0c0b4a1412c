/**
 * Shapes of JSON from a stranger, checked before anything reads it. A shape is a check (a wrong shape becomes
 * one line naming the field, not a TypeError deep in a rule) and a type: `ShapeOf<typeof s>` is what the check
 * proves, so a field is declared once and its type is true of every value that passed. Lists are walked with
 * loops, so a list of any length is checked without deep recursion (nesting is as deep as the shape, no deeper).
 */
import { isJsonObject as isObject } from '../util/json-path.js'

declare const checked: unique symbol

export type Shape<T = unknown> = ((value: unknown, at: string) => string | undefined) & { readonly [checked]: T }

/** The type a value has once `shape` accepted it. */
export type ShapeOf<S> = S extends Shape<infer T> ? T : never

type Flat<T> = { [K in keyof T]: T[K] } & {}
type RequiredFields<F> = { [K in keyof F as K extends `${string}?` ? never : K]: ShapeOf<F[K]> }
/** A field whose name ends in "?" may be absent, or null where the object allows it. */
type OptionalFields<F, Null> = { [K in keyof F as K extends `${infer Name}?` ? Name : never]?: ShapeOf<F[K]> | Null }
export type ObjectOf<F, Null = null> = Flat<RequiredFields<F> & OptionalFields<F, Null>>

const describe = (value: unknown): string => {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}…` : value)}`
  return `${typeof value} ${String(value)}`
}

/** A check written by hand, declared to prove T. */
export const shape = <T>(check: (value: unknown, at: string) => string | undefined): Shape<T> => check as Shape<T>

const expect = <T>(what: string, test: (value: unknown) => boolean): Shape<T> =>
  shape<T>((value, at) => (test(value) ? undefined : `${at || 'the file'} should be ${what}, not ${describe(value)}`))

export const string = expect<string>('a string', (v) => typeof v === 'string')
export const number = expect<number>('a number', (v) => typeof v === 'number' && Number.isFinite(v))
export const boolean = expect<boolean>('true or false', (v) => typeof v === 'boolean')
export const positiveInteger = expect<number>('a positive whole number', (v) => typeof v === 'number' && Number.isInteger(v) && v > 0)
/** A time the tool computes with (a collection time, an observation): RFC 3339 that Date can read, no other text. */
export const time = expect<string>('a time (RFC 3339)', (v) => typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && Number.isFinite(Date.parse(v)))
/** A Kubernetes int-or-string (a port, a quantity written either way). */
export const numberOrString = expect<number | string>('a number or a string', (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
export const anything = shape<unknown>(() => undefined)
export const oneOf = <const C extends string[]>(...choices: C): Shape<C[number]> =>
  expect<C[number]>(`one of ${choices.join(', ')}`, (v) => typeof v === 'string' && choices.includes(v))

/** A value that may also be null: Go writes an unset time it holds by value (metav1.Time) and a nil list without omitempty as null. */
export const nullable = <T>(inner: Shape<T>): Shape<T | null> => shape<T | null>((value, at) => (value === null ? undefined : inner(value, at)))

/** An object with these fields (others are allowed and left unchecked); a field whose name ends in "?" may be absent (or null). */
export function object<F extends Record<string, Shape<unknown>>>(fields: F): Shape<ObjectOf<F>> {
  return checkFields(fields, true)
}

/**
 * An object as the API server writes it: an optional field is absent, never null (Go's omitempty; the API server
 * prunes the nulls of a custom resource), so a null is refused rather than typed.
 */
export function kubeFields<F extends Record<string, Shape<unknown>>>(fields: F): Shape<ObjectOf<F, never>> {
  return checkFields(fields, false)
}

function checkFields<T>(fields: Record<string, Shape<unknown>>, nullIsAbsent: boolean): Shape<T> {
  const entries = Object.entries(fields).map(([key, check]) => ({ key: key.replace(/\?$/, ''), optional: key.endsWith('?'), check }))
  return shape((value, at) => {
    if (!isObject(value)) return `${at || 'the file'} should be an object, not ${describe(value)}`
    for (const { key, optional, check } of entries) {
      const field = Object.hasOwn(value, key) ? value[key] : undefined
      if (optional && (field === undefined || (nullIsAbsent && field === null))) continue
      const problem = field === undefined ? `${at ? `${at}.` : ''}${key} is missing` : check(field, at ? `${at}.${key}` : key)
      if (problem) return problem
    }
    return undefined
  })
}

export function list<T>(item: Shape<T>): Shape<T[]> {
  return shape((value, at) => {
    if (!Array.isArray(value)) return `${at || 'the file'} should be a list, not ${describe(value)}`
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i], `${at}[${i}]`)
      if (problem) return problem
    }
    return undefined
  })
}

export function mapOf<T>(item: Shape<T>): Shape<Record<string, T>> {
  return shape((value, at) => {
    if (!isObject(value)) return `${at || 'the file'} should be an object, not ${describe(value)}`
    for (const [key, inner] of Object.entries(value)) {
      const problem = item(inner, `${at}[${JSON.stringify(key)}]`)
      if (problem) return problem
    }
    return undefined
  })
}
