import { RE2JS } from 're2js'

/**
 * A regular expression of a profile, in Go's syntax (RE2) and matched in time linear in the text. A profile carries
 * its own drop_frames and the function names it is matched against, both a stranger's: a JavaScript RegExp
 * backtracks, so `(a+)+$` against a long name would never end; RE2 cannot. --focus and --ignore take the same
 * syntax, as go tool pprof reads them. (Patterns the user writes for other commands, --grep and jsonpath =~, stay
 * JavaScript RegExps: RE2 would add its 190 KB to every start of status and logs.)
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
