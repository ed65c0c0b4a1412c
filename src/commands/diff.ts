import { compareBundles } from '../analysis/bundle-diff.js'
import { diagnose, selectRules } from '../app/doctor.js'
import type { Session } from './session.js'
import { FAIL_ON } from '../engine/exit-code.js'
import { severityRank } from '../engine/define-rule.js'
import { renderDiffMarkdown, renderDiffText } from '../render/diff.js'
import type { Scope } from '../snapshot/types.js'
import { ExitCode } from '../util/errors.js'
import { outputFormatOf } from '../util/output.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, outputSpec, type InputOf } from './flag-spec.js'

export const DIFF_COMMAND = defineCommand({
  summary: 'Compare two bundles, or a bundle and the live cluster: incidents that appeared, were resolved or persisted, and what changed on each node',
  description:
    'Runs doctor over both and compares its incidents by id (the same cause on the same nodes is the same incident), then per node the phase, restarts (Pod replaced, containers restarted) and the keys of the rendered configuration that changed between the two collection times. With "live" as NEW the cluster is read with the scope OLD was collected for.\n\nExit codes: 0 nothing new at or above --fail-on, 1 something new at or above it, 2 usage or input error.',
  examples: [
    '<%= config.bin %> diff examples/bundles/healthy.tgz examples/bundles/config-change-restart.tgz',
    '<%= config.bin %> diff examples/bundles/profiling-unavailable.tgz live -o markdown',
    '<%= config.bin %> diff examples/bundles/not-syncing.tgz examples/bundles/not-syncing.tgz --fail-on warning -o json',
  ],
  args: {
    old: { description: 'the earlier bundle (file or directory)', required: true },
    new: { description: 'the later bundle, or "live" for the cluster', required: true },
  },
  flags: {
    ...GLOBAL_FLAGS,
    ...KUBE_FLAGS,
    output: outputSpec(['text', 'json', 'markdown']),
    'fail-on': { type: 'string', description: 'lowest severity of a new incident that makes the exit code 1', options: FAIL_ON, default: 'error' },
  },
})

/** The flags that read the live cluster with the scope a bundle was collected for. */
const scopeFlags = (scope: Scope) =>
  scope.kind === 'node'
    ? { name: scope.name, namespace: scope.namespace }
    : scope.kind === 'set'
      ? { set: scope.name, namespace: scope.namespace }
      : scope.kind === 'namespace'
        ? { all: true, namespace: scope.namespace }
        : { 'all-namespaces': true }

export async function runDiff(input: InputOf<typeof DIFF_COMMAND>, session: Session): Promise<ExitCode> {
  const rules = selectRules({})
  const [before] = await session.reader.snapshots({ ...input, bundle: input.old, namespace: undefined })
  const [after] =
    input.new === 'live'
      ? await session.reader.snapshots({ ...input, ...scopeFlags(before.scope) }, { logRoles: new Set(rules.flatMap((r) => r.logs ?? [])) })
      : await session.reader.snapshots({ ...input, bundle: input.new, namespace: undefined })
  const comparison = compareBundles(
    { snapshot: before, source: input.old, result: diagnose([before], rules, input.old) },
    { snapshot: after, source: input.new, result: diagnose([after], rules, input.new === 'live' ? undefined : input.new) },
  )
  const rendered = {
    text: () => renderDiffText(comparison),
    json: () => JSON.stringify({ schemaVersion: 1, kind: 'BundleDiff', ...comparison }, null, 2),
    markdown: () => renderDiffMarkdown(comparison),
  }[input.output]()
  session.output.print(rendered, outputFormatOf(input.output))
  const failOn = input['fail-on']
  const worse = failOn !== 'never' && comparison.incidents.appeared.some((i) => severityRank(i.severity) >= severityRank(failOn))
  return worse ? ExitCode.Findings : ExitCode.Clean
}
