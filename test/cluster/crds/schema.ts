/**
 * Small builders for the OpenAPI v3 schemas of the test cluster's CRDs (structural schemas, as the API server
 * requires): each field we model gets its type, so the API server prunes what the real operator's CRD would
 * prune and keeps what it keeps; a subtree we do not model (Kubernetes core types inside a spec, signer backends)
 * is `open()`, kept whole.
 */

export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean' | 'number'
  format?: string
  enum?: string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  additionalProperties?: Schema
  anyOf?: Schema[]
  'x-kubernetes-preserve-unknown-fields'?: true
  'x-kubernetes-int-or-string'?: true
}

export const str: Schema = { type: 'string' }
export const bool: Schema = { type: 'boolean' }
export const int: Schema = { type: 'integer' }
export const oneOf = (...values: string[]): Schema => ({ type: 'string', enum: values })
export const list = (items: Schema): Schema => ({ type: 'array', items })
export const strings: Schema = list(str)
export const stringMap: Schema = { type: 'object', additionalProperties: str }
/** A Kubernetes resource.Quantity: an integer or a string such as `100Gi`. */
export const quantity: Schema = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }
/** An object whose fields we do not model: kept as written. */
export const open: Schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }
/** Any JSON value kept as written (the operator's free-form TOML overrides). */
export const anyValue: Schema = { 'x-kubernetes-preserve-unknown-fields': true }

export function obj(properties: Record<string, Schema>, required?: string[]): Schema {
  return required ? { type: 'object', required, properties } : { type: 'object', properties }
}

/** corev1.ResourceRequirements as the operator embeds it. */
export const resources: Schema = obj({
  claims: list(open),
  limits: { type: 'object', additionalProperties: quantity },
  requests: { type: 'object', additionalProperties: quantity },
})

export interface PrinterColumn {
  name: string
  type: 'string' | 'boolean' | 'integer' | 'date'
  jsonPath: string
}

export interface CrdOptions {
  group: string
  kind: string
  plural: string
  singular?: string
  shortNames?: string[]
  scope: 'Namespaced' | 'Cluster'
  spec?: Schema
  status?: Schema
  columns?: PrinterColumn[]
  statusSubresource?: boolean
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1'
  kind: 'CustomResourceDefinition'
  metadata: { name: string }
  spec: {
    group: string
    names: { kind: string; listKind: string; plural: string; singular: string; shortNames?: string[] }
    scope: 'Namespaced' | 'Cluster'
    versions: Array<{
      name: 'v1'
      served: true
      storage: true
      schema: { openAPIV3Schema: Schema }
      subresources?: { status: Record<string, never> }
      additionalPrinterColumns?: PrinterColumn[]
    }>
  }
}

export function crd(o: CrdOptions): CustomResourceDefinition {
  const root = obj({ apiVersion: str, kind: str, metadata: { type: 'object' }, ...(o.spec && { spec: o.spec }), ...(o.status && { status: o.status }) })
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${o.plural}.${o.group}` },
    spec: {
      group: o.group,
      names: {
        kind: o.kind,
        listKind: `${o.kind}List`,
        plural: o.plural,
        singular: o.singular ?? o.kind.toLowerCase(),
        ...(o.shortNames && { shortNames: o.shortNames }),
      },
      scope: o.scope,
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: root },
          ...(o.statusSubresource !== false && o.status && { subresources: { status: {} } }),
          ...(o.columns && { additionalPrinterColumns: o.columns }),
        },
      ],
    },
  }
}
