/**
 * The other APIs the operator works with and the test cluster must serve: CSI VolumeSnapshots (snapshots,
 * restores, integrity checks) and cert-manager's Certificate and issuers (the webhook's serving certificate).
 * Only the fields our scenarios and rules touch are typed; the rest is kept whole.
 */
import { bool, crd, obj, open, str, type Schema } from './schema.js'

const SNAPSHOTS = 'snapshot.storage.k8s.io'
const CERT_MANAGER = 'cert-manager.io'

const snapshotSource: Schema = obj({ persistentVolumeClaimName: str, volumeSnapshotContentName: str })
const snapshotStatus: Schema = obj({ boundVolumeSnapshotContentName: str, creationTime: str, readyToUse: bool, restoreSize: str, error: open })

export const volumeSnapshotCrd = crd({
  group: SNAPSHOTS,
  kind: 'VolumeSnapshot',
  plural: 'volumesnapshots',
  shortNames: ['vs'],
  scope: 'Namespaced',
  spec: obj({ source: snapshotSource, volumeSnapshotClassName: str }, ['source']),
  status: snapshotStatus,
})

export const volumeSnapshotContentCrd = crd({
  group: SNAPSHOTS,
  kind: 'VolumeSnapshotContent',
  plural: 'volumesnapshotcontents',
  shortNames: ['vsc'],
  scope: 'Cluster',
  spec: obj({ deletionPolicy: str, driver: str, source: open, volumeSnapshotRef: open, volumeSnapshotClassName: str }, [
    'deletionPolicy',
    'driver',
    'source',
    'volumeSnapshotRef',
  ]),
  status: open,
})

/** A class is a plain object (no spec): its fields sit at the top level, next to metadata. */
export const volumeSnapshotClassCrd = (() => {
  const c = crd({ group: SNAPSHOTS, kind: 'VolumeSnapshotClass', plural: 'volumesnapshotclasses', shortNames: ['vsclass'], scope: 'Cluster' })
  const root = c.spec.versions[0].schema.openAPIV3Schema
  root.properties = { ...root.properties, driver: str, deletionPolicy: str, parameters: { type: 'object', additionalProperties: str } }
  root.required = ['deletionPolicy', 'driver']
  return c
})()

const certificateSpec: Schema = obj(
  {
    secretName: str,
    commonName: str,
    dnsNames: { type: 'array', items: str },
    duration: str,
    renewBefore: str,
    issuerRef: obj({ name: str, kind: str, group: str }, ['name']),
  },
  ['issuerRef', 'secretName'],
)
const certificateStatus: Schema = obj({ conditions: { type: 'array', items: open }, notAfter: str, notBefore: str, renewalTime: str })

export const certificateCrd = crd({
  group: CERT_MANAGER,
  kind: 'Certificate',
  plural: 'certificates',
  shortNames: ['cert', 'certs'],
  scope: 'Namespaced',
  spec: certificateSpec,
  status: certificateStatus,
})

export const issuerCrd = crd({ group: CERT_MANAGER, kind: 'Issuer', plural: 'issuers', scope: 'Namespaced', spec: open, status: open })
export const clusterIssuerCrd = crd({ group: CERT_MANAGER, kind: 'ClusterIssuer', plural: 'clusterissuers', scope: 'Cluster', spec: open, status: open })

export const DEPENDENCY_CRDS = [volumeSnapshotCrd, volumeSnapshotContentCrd, volumeSnapshotClassCrd, certificateCrd, issuerCrd, clusterIssuerCrd]
