import { describe, expect, it } from 'vitest'
import { classifyReconcileError } from '../../../src/analysis/reconcile-causes.js'

// The specific facts a key backend's or a store's answer carries, where it reaches the operator's words.
describe('classifyReconcileError reads the backend and store answers', () => {
  it('GCP KMS: the permission, the resource, and the role that grants it', () => {
    const match = classifyReconcileError(
      "failed to import cosmosigner key to GCP KMS: rpc error: code = PermissionDenied desc = Permission 'cloudkms.importJobs.useToImport' denied on resource 'projects/p/locations/global/keyRings/r/importJobs/j' (or it may not exist).",
    )
    expect(match).toMatchObject({
      cause: 'permission-denied',
      facts: { permission: 'cloudkms.importJobs.useToImport', resource: 'projects/p/locations/global/keyRings/r/importJobs/j' },
    })
  })

  it("a store's HTTP status, where its answer reaches the operator's words", () => {
    expect(classifyReconcileError('delete failed: AccessDenied: Access Denied (Service: S3, Status Code: 403) bucket "chain-snapshots"')).toMatchObject({
      cause: 'remote-store',
      facts: { status: '403', code: 'AccessDenied', bucket: 'chain-snapshots' },
    })
  })
})
