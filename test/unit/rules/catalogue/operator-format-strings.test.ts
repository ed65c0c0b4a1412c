import { execFileSync } from 'node:child_process'
import { beforeAll, describe, expect, it } from 'vitest'
import { entryById, VOCABULARY } from '../../../../src/rules/vocabulary/index.js'
import type { CauseMatch } from '../../../../src/analysis/reconcile-causes.js'
import { runRules } from '../../../../src/engine/run-rules.js'
import { RULES } from '../../../../src/rules/index.js'
import type { Finding } from '../../../../src/engine/define-rule.js'
import { SnapshotIndex } from '../../../../src/snapshot/index.js'
import type { Snapshot } from '../../../../src/snapshot/types.js'
import { OPERATOR_MESSAGES, OPERATOR_TAG, type OperatorFormat, type OperatorMessage } from '../../../fixtures/operator-messages.js'
import { findObject, loadBundle } from '../../../helpers/bundles.js'
import { managerLine, operatorEvent } from '../../../helpers/operator-records.js'
import { formatErrorEvent, goQuote, goSprintf } from '../../../helpers/go-format.js'

/**
 * The operator's own format strings (test/fixtures/operator-messages.ts), every verb filled, rendered as Go
 * renders them and placed where the operator writes them: each must be read as its catalogue entry, with the
 * specific facts its words carry. A change of wording in the operator changes the fixture, and this breaks.
 */

const errorText = (error: OperatorMessage['error']) => (error === undefined ? undefined : typeof error === 'string' ? error : goSprintf(error))

let healthy: Snapshot
const minutesBefore = (s: Snapshot, minutes: number) => new Date(Date.parse(s.collectedAt) - minutes * 60_000).toISOString()
const managerLog = (s: Snapshot) => s.logs.find((l) => l.container === 'manager' && l.namespace === 'cosmopilot-system' && !l.previous)!

/** The healthy bundle with the operator saying this message where it says it; the text as it lands. */
function place(message: OperatorMessage): { s: Snapshot; text: string } {
  const s = structuredClone(healthy)
  const node = findObject(s, 'ChainNode', 'fullnode-0')
  const obj = message.set ? findObject(s, 'ChainNodeSet', 'hub') : node
  if (message.setup === 'serving') node.spec.config = { ...node.spec.config, stateSync: { snapshotInterval: 1000 } }
  if (message.setup === 'phase-error') node.status.phase = 'Error'
  const rendered = goSprintf(message)
  const error = errorText(message.error)
  let text = rendered
  if (message.as === 'event') s.objects.push(operatorEvent(obj, message.reason!, rendered, minutesBefore(s, 2)))
  if (message.as === 'event-error') {
    text = formatErrorEvent(rendered, error!)
    s.objects.push(operatorEvent(obj, message.reason!, text, minutesBefore(s, 2)))
  }
  if (message.as === 'reconcile-error')
    for (const minutes of [6, 3, 1])
      managerLog(s).text += managerLine(obj, { msg: 'Reconciler error', error: rendered, at: minutesBefore(s, minutes) }, 'rfc3339')
  if (message.as === 'log-info') managerLog(s).text += managerLine(obj, { msg: rendered, level: 'info', at: minutesBefore(s, 1) }, 'rfc3339')
  if (message.as === 'log-error') managerLog(s).text += managerLine(obj, { msg: rendered, level: 'error', error, at: minutesBefore(s, 1) }, 'rfc3339')
  return { s, text }
}

const findingsOf = (s: Snapshot): Finding[] => runRules(new SnapshotIndex(s), RULES).findings

/** The specific cause a finding carries: a catalogue rule's, or reconcile-failing's. */
function specificOf(finding: Finding): Partial<CauseMatch> | undefined {
  const data = finding.data as { specific?: CauseMatch; causeFacts?: Record<string, string>; causeDetail?: string }
  if (data.specific) return data.specific
  if (data.causeFacts || data.causeDetail) return { facts: data.causeFacts, detail: data.causeDetail }
  return undefined
}

beforeAll(async () => {
  healthy = await loadBundle('healthy')
})

describe(`the operator's format strings (cosmopilot ${OPERATOR_TAG}), every argument filled`, () => {
  it('names catalogue entries only, and covers every entry the operator writes from a format string', () => {
    for (const message of OPERATOR_MESSAGES) expect(entryById.has(message.entry), message.entry).toBe(true)
    const covered = new Set(OPERATOR_MESSAGES.map((m) => m.entry))
    // Status entries are fields, not strings; these are matched by family (see the report of issue 43).
    const byFamily = new Set([
      'error-log/validation-warnings',
      'event/NoTrustHeight-serving',
      'reconcile-error/consensus-key-secret-missing',
      'set/error-log/spec-invalid',
      'set/reconcile-error/genesis',
    ])
    const uncovered = VOCABULARY.filter((e) => e.channel !== 'status' && !covered.has(e.id) && !byFamily.has(e.id)).map((e) => e.id)
    expect(uncovered).toEqual([])
  })

  for (const message of OPERATOR_MESSAGES) {
    const entry = entryById.get(message.entry)!
    it(`${message.file}:${message.line} ${JSON.stringify(message.format).slice(0, 70)} is ${message.entry}${message.facts ? ' with its facts' : ''}`, () => {
      const { s, text } = place(message)
      const findings = findingsOf(s)
      const own = findings.filter((f) => f.ruleId === entry.rule)
      expect(own.length, `no ${entry.rule} finding for: ${text}`).toBeGreaterThan(0)
      const finding =
        entry.rule === 'reconcile-failing'
          ? own[0]
          : // A rule of its own (validator-jailed, node-error…) reads the entry without naming it.
            own.find((f) => (f.data as { entries?: string[] }).entries?.includes(entry.id) ?? true)
      expect(finding, `${entry.rule} does not read it as ${entry.id}: ${text}`).toBeDefined()
      // Nothing generic speaks for what the catalogue knows, and nothing says "no Event" about an Event.
      if (entry.rule !== 'reconcile-failing') expect(findings.filter((f) => f.ruleId === 'reconcile-failing')).toEqual([])
      expect(finding!.cause).not.toMatch(/records no Event/)
      expect(finding!.action).not.toMatch(/\{[a-zA-Z0-9]+\}/)
      if (message.facts) {
        const specific = specificOf(finding!)
        expect(specific?.facts, `no specific cause read from: ${text}`).toMatchObject(message.facts)
        expect(finding!.cause).toContain(specific!.detail)
      }
    })
  }
})

const SOURCE = process.env.CHAINNODE_OPERATOR_SOURCE

describe.skipIf(!SOURCE)(
  `the fixture against the operator's source at ${OPERATOR_TAG} (skipped: set CHAINNODE_OPERATOR_SOURCE to a clone of voluzi/cosmopilot)`,
  () => {
    const files = new Map<string, string[]>()
    const linesOf = (file: string) => {
      if (!files.has(file)) files.set(file, execFileSync('git', ['-C', SOURCE!, 'show', `${OPERATOR_TAG}:${file}`], { encoding: 'utf8' }).split('\n'))
      return files.get(file)!
    }
    const formats = (format: OperatorFormat): OperatorFormat[] => [
      format,
      ...(format.args ?? []).flatMap((arg) => (typeof arg === 'object' ? formats(arg) : [])),
      ...('error' in format && typeof format.error === 'object' ? formats(format.error as OperatorFormat) : []),
    ]
    it('finds each format string at its file and line', () => {
      const moved = OPERATOR_MESSAGES.flatMap(formats).filter((f) => !(linesOf(f.file)[f.line - 1] ?? '').includes(goQuote(f.format)))
      expect(moved.map((f) => `${f.file}:${f.line} ${f.format}`)).toEqual([])
    })
  },
)
