import { refOf } from '../snapshot/index.js'
import { mainContainerName } from '../snapshot/node-layout.js'
import { defineRule, nodeArgs } from '../engine/define-rule.js'
import { field } from '../engine/evidence.js'
import { grepLogs } from '../analysis/grep-logs.js'

/** Cosmos SDK x/upgrade: `UPGRADE "v2" NEEDED at height: 1200: <info>` — the app halts at the plan's height. */
const UPGRADE_NEEDED = /UPGRADE "([^"]{1,100})" NEEDED at height: (\d+)/

interface UpgradeNeeded {
  name: string
  height: number
  /** The image .spec.app.upgrades (or .status.upgrades) sets for that height, when any. */
  image?: string
  upgradeStatus?: string
}

export default defineRule<UpgradeNeeded>({
  id: 'upgrade-needed',
  title: 'The chain halted for an upgrade',
  severity: 'error',
  specRow: 'Issue 30: the chain container logs UPGRADE "<name>" NEEDED at height H',
  logs: ['main'],
  check({ index, node, pod }) {
    const hits = grepLogs(index, pod, mainContainerName(node, pod), UPGRADE_NEEDED, 3)
    const last = hits.at(-1)
    const match = last && UPGRADE_NEEDED.exec(last.text)
    if (!match) return []
    const height = Number(match[2])
    const planned = (node.spec?.app?.upgrades ?? []).find((u) => u.height === height)
    const recorded = (node.status?.upgrades ?? []).find((u) => u.height === height)
    const image = planned?.image ?? recorded?.image
    // The new image runs past the height: the line is history once the running image is the planned one.
    if (image && node.spec?.app?.image === image) return []
    const evidence = [...hits, field(node, '.spec.app.upgrades', node.spec?.app?.upgrades ?? [])]
    if (recorded) evidence.push(field(node, '.status.upgrades', recorded))
    return [{ subject: refOf(node), data: { name: match[1], height, image, upgradeStatus: recorded?.status }, evidence, since: last.at }]
  },
  summary: (d) =>
    `upgrade "${d.name}" needed at height ${d.height}: ${d.image ? `image ${d.image} is set for it${d.upgradeStatus ? ` (${d.upgradeStatus})` : ''}` : 'no image is set for it'}`,
  cause: (d) =>
    d.image
      ? 'the app halted at the upgrade height; the operator swaps the image there, and has not (yet) restarted the node on it'
      : 'the app halted at the upgrade height and the ChainNode names no image for it: nothing will restart it on the new binary',
  action: (d, on) =>
    d.image
      ? `Check the Upgrade condition and the operator log for the swap to ${d.image}; the node resumes once it runs that image.`
      : `Add the upgrade to the ChainNode: .spec.app.upgrades: [{height: ${d.height}, image: <image of ${d.name}>}] (kubectl edit chainnode ${nodeArgs(on)}).`,
})
