import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { chainNodeCrd, chainNodeSetCrd, consensusKeyReservationCrd, COSMOPILOT_CRDS } from '../cluster/crds/cosmopilot.js'
import { DEPENDENCY_CRDS } from '../cluster/crds/dependencies.js'
import type { CustomResourceDefinition, Schema } from '../cluster/crds/schema.js'
import { ROOT } from '../helpers/cli.js'
import { referenceFile } from '../helpers/reference.js'

const OURS = [...COSMOPILOT_CRDS, ...DEPENDENCY_CRDS]
const rootSchema = (crd: CustomResourceDefinition): Schema => crd.spec.versions[0].schema.openAPIV3Schema

/** Every field path of a schema (`.spec.app.image`, `.spec.peers[].id`, `.spec.nodeSelector{}`) with its node. */
function fieldPaths(schema: Schema, prefix = ''): Map<string, Schema> {
  const out = new Map<string, Schema>([[prefix || '.', schema]])
  for (const [name, child] of Object.entries(schema.properties ?? {})) for (const [p, s] of fieldPaths(child, `${prefix}.${name}`)) out.set(p, s)
  if (schema.items) for (const [p, s] of fieldPaths(schema.items, `${prefix}[]`)) out.set(p, s)
  if (schema.additionalProperties) for (const [p, s] of fieldPaths(schema.additionalProperties, `${prefix}{}`)) out.set(p, s)
  return out
}

const keeps = (s: Schema): boolean => s['x-kubernetes-preserve-unknown-fields'] === true

/** The paths of `value` the API server would drop when storing it under `schema` (a structural schema prunes unknown fields). */
function prunedPaths(value: unknown, schema: Schema, at: string): string[] {
  if (keeps(schema) && !schema.properties) return []
  if (Array.isArray(value)) return schema.items ? value.flatMap((item) => prunedPaths(item, schema.items!, `${at}[]`)) : []
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, child]) => {
    const next = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : schema.additionalProperties
    if (next) return prunedPaths(child, next, `${at}.${key}`)
    return keeps(schema) ? [] : [`${at}.${key}`]
  })
}

/** Every object of a kind in the fixture bundles (the example bundles, unpacked), with the file it came from. */
function fixtureObjects(kind: string): Array<{ file: string; object: Record<string, unknown> }> {
  const bundles = path.join(ROOT, 'test', 'fixtures', 'bundles')
  const out: Array<{ file: string; object: Record<string, unknown> }> = []
  for (const bundle of readdirSync(bundles))
    for (const namespace of readdirSync(path.join(bundles, bundle, 'resources'))) {
      const file = path.join(bundles, bundle, 'resources', namespace, `${kind}.json`)
      let objects: Array<Record<string, unknown>>
      try {
        objects = JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, unknown>>
      } catch {
        continue
      }
      for (const object of objects) out.push({ file: path.relative(ROOT, file), object })
    }
  return out
}

describe("the test cluster's CRDs (test/cluster/crds/)", () => {
  it.each(OURS.map((crd) => [crd.metadata.name, crd] as const))('%s is a structural schema: every field has a type, or is kept whole', (_, crd) => {
    const untyped = [...fieldPaths(rootSchema(crd))].filter(([, s]) => !s.type && !keeps(s) && !s['x-kubernetes-int-or-string']).map(([p]) => p)
    expect(untyped).toEqual([])
    for (const column of crd.spec.versions[0].additionalPrinterColumns ?? [])
      if (!column.jsonPath.startsWith('.metadata.')) expect(fieldPaths(rootSchema(crd)).has(column.jsonPath)).toBe(true)
  })

  it.each(['ChainNode', 'ChainNodeSet', 'VolumeSnapshot', 'VolumeSnapshotClass', 'Certificate'])(
    'keeps every field of every %s the fixture bundles hold (nothing the tests rely on is pruned)',
    (kind) => {
      const crd = OURS.find((c) => c.spec.names.kind === kind)!
      const objects = fixtureObjects(kind)
      expect(objects.length).toBeGreaterThan(0)
      const { metadata: _metadata, apiVersion: _apiVersion, kind: _kind, ...schemaWithoutMeta } = rootSchema(crd).properties!
      const schema: Schema = { type: 'object', properties: schemaWithoutMeta }
      const pruned = objects.flatMap(({ file, object }) => {
        const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = object
        return prunedPaths(rest, schema, '').map((p) => `${file}: ${p}`)
      })
      expect(pruned).toEqual([])
    },
  )

  it('declares the required fields, scope and short names the API server enforces for the operator kinds', () => {
    const spec = rootSchema(chainNodeCrd).properties!.spec
    expect(spec.required).toEqual(['app'])
    expect(spec.properties!.app.required).toEqual(['app', 'image'])
    expect(rootSchema(chainNodeSetCrd).properties!.spec.required).toEqual(['app', 'nodes'])
    expect(consensusKeyReservationCrd.spec.scope).toBe('Cluster')
    expect(consensusKeyReservationCrd.spec.names.shortNames).toEqual(['ckr'])
  })
})

/** The operator's own CRDs, as generated by controller-gen for v3.0.0 (reference material, not in the repository). */
const REAL = [
  { ours: chainNodeCrd, file: 'cosmopilot/crds/cosmopilot.voluzi.com_chainnodes.yaml' },
  { ours: chainNodeSetCrd, file: 'cosmopilot/crds/cosmopilot.voluzi.com_chainnodesets.yaml' },
  ...DEPENDENCY_CRDS.map((ours) => ({
    ours,
    file: ours.spec.group === 'cert-manager.io' ? 'cosmopilot/crds/certmanager-crds.yaml' : 'cosmopilot/crds/volumesnapshot-crds.yaml',
  })),
]

describe("the test cluster's CRDs against the operator's", () => {
  it.for(REAL.map((r) => [r.ours.metadata.name, r] as const))(
    '%s: names, scope, subresources, printer columns and every field path match',
    ([name, { ours, file }], ctx) => {
      const reference = referenceFile(file)
      if (!reference.path) return ctx.skip(reference.skipReason)
      const real = (yaml.loadAll(readFileSync(reference.path, 'utf8')) as CustomResourceDefinition[]).find((d) => d?.metadata?.name === name)
      expect(real, `${name} in ${file}`).toBeDefined()
      const realVersion = real!.spec.versions[0]
      const ourVersion = ours.spec.versions[0]
      expect({ ...ours.spec.names, shortNames: ours.spec.names.shortNames ?? [] }).toEqual({
        ...real!.spec.names,
        shortNames: real!.spec.names.shortNames ?? [],
      })
      expect(ours.spec.scope).toBe(real!.spec.scope)
      expect(ourVersion.subresources ?? {}).toEqual(realVersion.subresources ?? {})
      expect(ourVersion.additionalPrinterColumns ?? []).toEqual(realVersion.additionalPrinterColumns ?? [])

      const theirs = fieldPaths(realVersion.schema.openAPIV3Schema)
      const mismatches: string[] = []
      for (const [p, s] of fieldPaths(ourVersion.schema.openAPIV3Schema)) {
        const r = theirs.get(p)
        if (!r) mismatches.push(`${p}: not in the operator's CRD`)
        else if ((s.type ?? 'any') !== (r.type ?? 'any') && !(s['x-kubernetes-int-or-string'] && r['x-kubernetes-int-or-string']))
          mismatches.push(`${p}: ${s.type} here, ${r.type} there`)
        else if (s.enum && JSON.stringify(s.enum) !== JSON.stringify(r.enum)) mismatches.push(`${p}: enum ${s.enum.join('|')} here, ${r.enum?.join('|')} there`)
        else if (s.properties && JSON.stringify([...(s.required ?? [])].sort()) !== JSON.stringify([...(r.required ?? [])].sort()))
          mismatches.push(`${p}: requires ${s.required?.join(',') ?? 'nothing'} here, ${r.required?.join(',') ?? 'nothing'} there`)
      }
      expect(mismatches).toEqual([])
    },
  )

  it('models every spec and status field the operator defines on ChainNode and ChainNodeSet, at least at their first level', (ctx) => {
    for (const { ours, file } of REAL.slice(0, 2)) {
      const reference = referenceFile(file)
      if (!reference.path) return ctx.skip(reference.skipReason)
      const real = yaml.load(readFileSync(reference.path, 'utf8')) as CustomResourceDefinition
      const ourPaths = fieldPaths(rootSchema(ours))
      const missing = [...fieldPaths(real.spec.versions[0].schema.openAPIV3Schema).keys()].filter(
        (p) => /^\.(spec|status)\.[A-Za-z]+$/.test(p) && !ourPaths.has(p),
      )
      expect({ crd: ours.metadata.name, missing }).toEqual({ crd: ours.metadata.name, missing: [] })
    }
  })
})
