import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compareBundles } from '../../src/analysis/bundle-diff.js'
import { diagnose, selectRules } from '../../src/app/doctor.js'
import { renderDiffMarkdown } from '../../src/render/diff.js'
import { writeBundle } from '../../src/snapshot/bundle.js'
import type { Snapshot } from '../../src/snapshot/types.js'
import { findObject, useBundles } from '../helpers/bundles.js'
import { runCli } from '../helpers/cli.js'

const work = mkdtempSync(path.join(tmpdir(), 'bundle-diff-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const load = useBundles('profiling-unavailable')
const rules = selectRules({})

/** profiling-unavailable a day earlier: node-utils had not logged the port conflict yet, and nothing else differed. */
function yesterday(): Snapshot {
  const snapshot = load('profiling-unavailable')
  for (const log of snapshot.logs) log.text = log.text.replace(/^.*6666.*$/gm, '')
  snapshot.probes = snapshot.probes.filter((p) => p.kind !== 'pprof')
  return snapshot
}

/** Today: the conflict, the node's Pod replaced, its phase changed, its config.toml moniker changed, and a markup-laden phase. */
function today(): Snapshot {
  const snapshot = load('profiling-unavailable')
  const node = findObject(snapshot, 'ChainNode', 'prof-0')
  node.status = { ...node.status, phase: 'Syncing' }
  const pod = findObject(snapshot, 'Pod', 'prof-0')
  pod.metadata.uid = 'replaced-uid'
  const config = findObject(snapshot, 'ConfigMap', 'prof-0')
  config.data = { ...config.data, 'config.toml': `${config.data['config.toml']}\n[diff]\nmarker = "<b>|x|</b>"\n` }
  return snapshot
}

const run = (before: Snapshot, after: Snapshot) =>
  compareBundles(
    { snapshot: before, source: 'old.tgz', result: diagnose([before], rules, 'old.tgz') },
    { snapshot: after, source: 'new.tgz', result: diagnose([after], rules, 'new.tgz') },
  )

describe('chainnode diff: two bundles compared', () => {
  it('names the incident that appeared, the one resolved the other way round, and what persisted', () => {
    const forward = run(yesterday(), today())
    expect(forward.incidents.appeared.map((i) => i.ruleId)).toEqual(['profiling-unavailable'])
    expect(forward.incidents.resolved).toEqual([])
    const backward = run(today(), yesterday())
    expect(backward.incidents.resolved.map((i) => i.ruleId)).toEqual(['profiling-unavailable'])
    expect(backward.incidents.appeared).toEqual([])
    expect(forward.incidents.persisted.map((i) => i.id).sort()).toEqual(backward.incidents.persisted.map((i) => i.id).sort())
  })

  it('names the phase change, the Pod replaced and the configuration keys changed between the two collection times', () => {
    const [change] = run(yesterday(), today()).nodes.changed
    expect(change.node.name).toBe('prof-0')
    expect(change.phase).toEqual({ before: 'Running', after: 'Syncing' })
    expect(change.restarts).toMatchObject({ podReplaced: true })
    expect(change.configKeys).toContain('config.toml:diff')
    // Markdown escapes what the bundle says.
    expect(renderDiffMarkdown(run(yesterday(), today()))).not.toContain('<b>')
  })

  it('exits 1 when a new incident reaches --fail-on, 0 when none does; text, JSON and markdown', async () => {
    const [old, now] = [path.join(work, 'old'), path.join(work, 'new')]
    await writeBundle(old, yesterday(), true)
    await writeBundle(now, today(), true)
    const warning = await runCli(['diff', old, now, '--fail-on', 'warning'])
    expect(warning.code, warning.stderr).toBe(1)
    expect(warning.stdout).toMatch(/^Appeared \(1\):\n {2}WARNING {2}profiling-unavailable /m)
    expect(warning.stdout).toMatch(/prof-0: phase Running -> Syncing; Pod replaced; configuration keys changed: .*config\.toml:diff/)
    expect((await runCli(['diff', old, now])).code).toBe(0)
    expect((await runCli(['diff', now, old, '--fail-on', 'info'])).code).toBe(0)
    const json = JSON.parse((await runCli(['diff', old, now, '-o', 'json', '--fail-on', 'never'])).stdout)
    expect(json).toMatchObject({ kind: 'BundleDiff', incidents: { appeared: [{ ruleId: 'profiling-unavailable', severity: 'warning' }] } })
    const markdown = await runCli(['diff', old, now, '-o', 'markdown', '--fail-on', 'never'])
    expect(markdown.stdout).toMatch(/^## Appeared \(1\)$/m)
  })
})
