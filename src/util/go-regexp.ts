import { RE2JS } from 're2js'

/**
 * A regular expression someone gave us, in Go's syntax (RE2) and matched in time linear in the text. Both the
 * patterns and the texts can be a stranger's: a profile carries its own drop_frames and the function names it is
 * matched against, --grep runs over any log. A JavaScript RegExp backtracks, so `(a+)+$` against a long name
 * would never end; RE2 cannot. It is also the syntax the peers read: go tool pprof's --focus, kubectl's jsonpath
 * =~, stern's --include.
 */
export interface GoRegexp {
  /** Whether the expression matches some part of the text (Go's MatchString). */
  test(text: string): boolean
}

export class GoRegexpSyntaxError extends Error {}

/** Compile Go syntax; `whole` anchors it to the whole text (pprof's drop_frames: `^(?:…)$`). */
export function compileGoRegexp(source: string, { whole = false } = {}): GoRegexp {
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(whole ? `^(?:${source})$` : source)
  } catch (error) {
    throw new GoRegexpSyntaxError((error as Error).message)
  }
  return { test: (text) => compiled.test(text) }
}
