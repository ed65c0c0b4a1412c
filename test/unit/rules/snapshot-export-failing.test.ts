import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { nodeEvent, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()
const QUOTA =
  'Error on tarball export jobs.batch "cosmoshub-4-1-upload" is forbidden: exceeded quota: jobs, requested: count/jobs.batch=1, used: count/jobs.batch=10, limited: count/jobs.batch=10'

describe('snapshot-export-failing', () => {
  it('a ResourceQuota full of Jobs: used 10 of 10, and the command that shows it', () => {
    const s = clone()
    nodeEvent(s, 'TarballExportError', QUOTA, 1)
    const [finding] = findingsOf(s, 'snapshot-export-failing')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(/: ResourceQuota jobs is full: count\/jobs\.batch used 10 of 10, asks 1 more$/)
    expect(finding.action).toMatch(/^Raise ResourceQuota jobs in sc-healthy \(kubectl describe resourcequota jobs -n sc-healthy\), or delete the finished Jobs/)
    expect(finding.evidence.some((e) => e.text.includes('exceeded quota: jobs'))).toBe(true)
  })

  it('an export that finished after the error is over', () => {
    const s = clone()
    nodeEvent(s, 'TarballExportError', QUOTA, 10)
    nodeEvent(s, 'TarballFinished', 'Tarball cosmoshub-4-1 export finished', 2, 'Normal')
    expect(findingsOf(s, 'snapshot-export-failing')).toEqual([])
  })
})
