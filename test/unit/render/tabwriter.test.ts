import { describe, expect, it } from 'vitest'
import { alignTabs } from '../../../src/render/tabwriter.js'

describe('alignTabs (text/tabwriter, padding 2, as kubectl describe)', () => {
  it('aligns a column over consecutive lines that have it', () => {
    expect(alignTabs(['Name:\tpull-0', 'Namespace:\tsc-image-pull', '\tmore'])).toEqual(['Name:       pull-0', 'Namespace:  sc-image-pull', '            more'])
  })

  it('restarts alignment after a line without the cell, so nested sections align on their own', () => {
    expect(alignTabs(['Spec:', '  App:', '    Image:\tgaiad', '    Version:\tv1', '  Config:', '    Block Threshold:\t60s'])).toEqual([
      'Spec:',
      '  App:',
      '    Image:    gaiad',
      '    Version:  v1',
      '  Config:',
      '    Block Threshold:  60s',
    ])
  })

  it('aligns several columns, each over its own block (the Conditions and Events tables)', () => {
    expect(alignTabs(['  Type\tStatus', '  PodReadyToStartContainers \tTrue', '  Ready \tFalse'])).toEqual([
      '  Type                        Status',
      '  PodReadyToStartContainers   True',
      '  Ready                       False',
    ])
    expect(alignTabs(['  Type\tReason\tAge\tMessage', '  ----\t------\t----\t-------', '  Warning\tFailed\t5m\tErrImagePull'])).toEqual([
      '  Type     Reason  Age   Message',
      '  ----     ------  ----  -------',
      '  Warning  Failed  5m    ErrImagePull',
    ])
  })
})
