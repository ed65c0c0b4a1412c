import { readFileSync } from 'node:fs'
import yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { kindProblem } from '../../src/snapshot/bundle-shape.js'
import { isKind } from '../../src/snapshot/kinds.js'
import type { KubeObject } from '../../src/snapshot/types.js'
import { chainNodeCrd, chainNodeSetCrd } from '../cluster/crds/cosmopilot.js'
import type { CustomResourceDefinition, Schema } from '../cluster/crds/schema.js'
import { referenceFile } from '../helpers/reference.js'

/**
 * A value for every field a schema defines, each of the type the schema gives: what the API server would
 * store for a custom resource that sets everything. A Quantity (int-or-string) is written as a string.
 */
function everyField(schema: Schema): unknown {
  if (schema.enum) return schema.enum[0]
  if (schema['x-kubernetes-int-or-string']) return '10Gi'
  switch (schema.type) {
    case 'string':
      return schema.format === 'date-time' ? '2026-11-27T00:00:00Z' : 'text'
    case 'integer':
    case 'number':
      return 7
    case 'boolean':
      return true
    case 'array':
      return schema.items ? [everyField(schema.items)] : []
    case 'object': {
      const fields = Object.entries(schema.properties ?? {}).map(([name, inner]) => [name, everyField(inner)])
      if (schema.additionalProperties) fields.push(['key', everyField(schema.additionalProperties)])
      return Object.fromEntries(fields)
    }
    default:
      return {}
  }
}

const resourceOf = (crd: CustomResourceDefinition): KubeObject => {
  const { spec, status } = everyField(crd.spec.versions[0].schema.openAPIV3Schema) as Record<string, unknown>
  return { apiVersion: `${crd.spec.group}/v1`, kind: crd.spec.names.kind, metadata: { name: 'n', namespace: 'ns' }, spec, status }
}

// The typed views (src/snapshot/kinds.ts) say what type each field we read has; the CRDs say what the API server stores.
describe("the typed views agree with the operator's CRDs", () => {
  it.each([chainNodeCrd, chainNodeSetCrd].map((crd) => [crd.spec.names.kind, crd] as const))(
    '%s with every field our CRD model defines has the shape its view declares',
    (_kind, crd) => {
      expect(kindProblem(resourceOf(crd))).toBeUndefined()
    },
  )

  it.for([
    ['ChainNode', 'cosmopilot/crds/cosmopilot.voluzi.com_chainnodes.yaml'],
    ['ChainNodeSet', 'cosmopilot/crds/cosmopilot.voluzi.com_chainnodesets.yaml'],
  ])("%s with every field of the operator's own CRD has the shape its view declares", ([, file], ctx) => {
    const reference = referenceFile(file)
    if (!reference.path) return ctx.skip(reference.skipReason)
    const crd = yaml.load(readFileSync(reference.path, 'utf8')) as CustomResourceDefinition
    expect(kindProblem(resourceOf(crd))).toBeUndefined()
  })

  it('a field of another type than the CRD gives is named, with the value found', () => {
    const node = resourceOf(chainNodeCrd) as KubeObject & { status: Record<string, unknown>; spec: { app: Record<string, unknown> } }
    node.status.latestHeight = '12'
    expect(kindProblem(node)).toBe('status.latestHeight should be a number, not the string "12"')
    node.status.latestHeight = 12
    node.spec.app.upgrades = [{ height: 'soon', image: 'x' }]
    expect(kindProblem(node)).toBe('spec.app.upgrades[0].height should be a number, not the string "soon"')
  })

  it('a kind no view declares is read as it is; isKind tells a kind by its name only', () => {
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'a' } }
    const other = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 's' }, secrets: 'anything at all' }
    expect(kindProblem(other)).toBeUndefined()
    expect([isKind(lease, 'Lease'), isKind(other, 'Lease')]).toEqual([true, false])
  })
})
