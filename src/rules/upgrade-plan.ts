import { chainProbeOf } from '../snapshot/chain.js'
import { refOf } from '../snapshot/index.js'
import { defineRule, nodeArgs, type Evidence } from '../engine/define-rule.js'
import { field, cosmosQuery } from '../engine/evidence.js'
import { humanAge } from '../util/duration.js'

/** A plan this close without an image is an error: the node halts at its height and nothing restarts it. */
export const UPGRADE_NEAR_MS = 24 * 3_600_000
/** Without a block time to estimate from, this many blocks count as near. */
const NEAR_BLOCKS = 20_000

interface UpgradePlanData {
  name: string
  height: number
  blocksLeft: number
  etaMs?: number
  blockTimeMs?: number
  /** The image the node will run at the height, and where it was read: .spec.app.upgrades or the operator's .status.upgrades. */
  image?: string
  imageFrom?: 'spec' | 'status'
  /** The operator's own word on the upgrade (.status.upgrades[].status: scheduled, image-missing, ...). */
  operatorStatus?: string
  near: boolean
  source: string
}

/**
 * x/upgrade's pending plan, read from the chain, against what the node will run at its height: the operator swaps
 * the image at the height when .spec.app.upgrades names one, or when it found one in the plan's info itself
 * (.status.upgrades, status scheduled; image-missing when it found none).
 */
export default defineRule<UpgradePlanData>({
  id: 'upgrade-plan',
  title: 'An upgrade is planned on the chain',
  severity: 'warning',
  severityNote: '(info when the node has an image for it; error when it is near and the node has none)',
  specRow: 'Issue 41: the next upgrade (x/upgrade CurrentPlan against .spec.app.upgrades and .status.upgrades)',
  suppressedBy: ['upgrade-needed'],
  check({ index, node, pod }) {
    const cosmos = chainProbeOf(index.snapshot, pod)?.chain?.cosmos
    const plan = cosmos?.upgradePlan
    if (!cosmos || !plan) return []
    const height = cosmos.height ?? 0
    // At or past the height the chain has halted for it: upgrade-needed reads the halt from the log.
    if (height >= plan.height) return []
    const planned = (node.spec?.app?.upgrades ?? []).find((u) => u.height === plan.height)
    const recorded = (node.status?.upgrades ?? []).find((u) => u.height === plan.height)
    const image = planned?.image ?? (recorded?.status !== 'image-missing' ? recorded?.image : undefined)
    const blocksLeft = plan.height - height
    const etaMs = cosmos.blockTimeMs ? blocksLeft * cosmos.blockTimeMs : undefined
    const near = etaMs !== undefined ? etaMs <= UPGRADE_NEAR_MS : blocksLeft <= NEAR_BLOCKS
    const evidence: Evidence[] = [
      cosmosQuery(
        cosmos,
        'upgrade.v1beta1.Query/CurrentPlan',
        `plan "${plan.name}" at height ${plan.height}${plan.info ? `, info ${plan.info.slice(0, 200)}` : ''} (chain at ${height})`,
      ),
      field(node, '.spec.app.upgrades', node.spec?.app?.upgrades ?? []),
    ]
    if (recorded) evidence.push(field(node, '.status.upgrades', recorded))
    return [
      {
        subject: refOf(node),
        severity: image ? 'info' : near ? 'error' : 'warning',
        data: {
          name: plan.name,
          height: plan.height,
          blocksLeft,
          etaMs,
          blockTimeMs: cosmos.blockTimeMs,
          image,
          imageFrom: planned?.image ? 'spec' : image ? 'status' : undefined,
          operatorStatus: recorded?.status,
          near,
          source: cosmos.source,
        },
        evidence,
      },
    ]
  },
  summary: (d) =>
    `upgrade "${d.name}" at height ${d.height}, in ${d.blocksLeft} blocks${d.etaMs !== undefined ? ` (~${humanAge(d.etaMs)} at the recent block time of ${((d.blockTimeMs ?? 0) / 1000).toFixed(1)}s)` : ''}: ${
      d.image ? `image ${d.image} is set for it` : `no image is set for it${d.operatorStatus ? ` (operator: ${d.operatorStatus})` : ''}`
    }`,
  cause: (d) =>
    d.image
      ? `the chain halts at height ${d.height} for "${d.name}"; the operator swaps the node to ${d.image} there (${d.imageFrom === 'spec' ? '.spec.app.upgrades' : '.status.upgrades, from the plan'})`
      : `the chain halts at height ${d.height} for "${d.name}" and neither .spec.app.upgrades nor the plan's info gives the node an image for it${d.operatorStatus === 'image-missing' ? ' (the operator marked it image-missing)' : ''}: the node will stop there and stay stopped`,
  action: (d, on) =>
    d.image
      ? `Check ${d.image} exists and can be pulled before height ${d.height} (kubectl chainnode doctor ${nodeArgs(on)} after the swap).`
      : `Add the new version's image for height ${d.height} before it is reached: .spec.app.upgrades: [{height: ${d.height}, image: <image of ${d.name}>}] (kubectl edit chainnode ${nodeArgs(on)}).`,
})
