import { cosmosQuery } from '../engine/evidence.js'
import { chainProbeOf } from '../snapshot/chain.js'
import { refOf } from '../snapshot/index.js'
import { defineRule, nodeArgs } from '../engine/define-rule.js'
import { humanAge } from '../util/duration.js'

/** Misses at which the window is worth a warning even when the latest blocks were signed: a tenth of what jails. */
const SHARE_OF_ALLOWED = 0.1

interface JailRisk {
  valcons: string
  missed: number
  window: number
  minSignedPerWindow: number
  /** Misses x/slashing allows in the window; the next one past it jails. */
  maxMissed: number
  remaining: number
  blockTimeMs?: number
  /** The latest commits counted by the signing probe show it missing now: the counter still climbs. */
  missingNow: boolean
  /** The chain cannot jail it before start_height + window, however many it misses. */
  earliestJailHeight: number
  height?: number
  source: string
  jailSeconds: number
}

/**
 * x/slashing keeps, per validator, a counter of the blocks it missed in the last `signed_blocks_window` (only an
 * absent vote is a miss; a nil vote is a signature). Past `window - round(window * min_signed_per_window)` misses the
 * chain jails it. This reads the counter and the window from the chain itself.
 */
export default defineRule<JailRisk>({
  id: 'validator-jail-risk',
  title: 'Validator close to being jailed for downtime',
  severity: 'warning',
  specRow: 'Issue 41: jail risk from the slashing window (x/slashing missed_blocks_counter against signed_blocks_window)',
  suppressedBy: ['validator-tombstoned'],
  check({ index, node, pod }) {
    if (!node.spec?.validator) return []
    const probe = chainProbeOf(index.snapshot, pod)
    const cosmos = probe?.chain?.cosmos
    const info = cosmos?.validator?.signingInfo
    const params = cosmos?.slashing
    if (!cosmos || !info || !params || info.tombstoned) return []
    // A jailed validator is validator-jailed's: the risk has come true.
    if (cosmos.validator?.staking?.jailed) return []
    const minSigned = Math.round(params.signedBlocksWindow * params.minSignedPerWindow)
    const maxMissed = params.signedBlocksWindow - minSigned
    const signing = probe.chain?.signing
    const missingNow = Boolean(signing?.toHeight && signing.missedHeights.at(-1) === signing.toHeight)
    const climbing = info.missedBlocksCounter > 0 && missingNow
    if (!climbing && info.missedBlocksCounter < Math.max(1, Math.ceil(maxMissed * SHARE_OF_ALLOWED))) return []
    return [
      {
        subject: refOf(node),
        data: {
          valcons: cosmos.validator!.valcons ?? cosmos.validator!.consensusAddress,
          missed: info.missedBlocksCounter,
          window: params.signedBlocksWindow,
          minSignedPerWindow: params.minSignedPerWindow,
          maxMissed,
          remaining: Math.max(0, maxMissed - info.missedBlocksCounter + 1),
          blockTimeMs: cosmos.blockTimeMs,
          missingNow,
          earliestJailHeight: info.startHeight + params.signedBlocksWindow,
          height: cosmos.height,
          source: cosmos.source,
          jailSeconds: params.downtimeJailSeconds,
        },
        evidence: [
          cosmosQuery(
            cosmos,
            'slashing.v1beta1.Query/SigningInfo',
            `${info.address}: missed_blocks_counter ${info.missedBlocksCounter}, index_offset ${info.indexOffset}, start_height ${info.startHeight}`,
          ),
          cosmosQuery(
            cosmos,
            'slashing.v1beta1.Query/Params',
            `signed_blocks_window ${params.signedBlocksWindow}, min_signed_per_window ${params.minSignedPerWindow}, downtime_jail_duration ${params.downtimeJailSeconds}s`,
          ),
          ...(signing?.toHeight
            ? [
                {
                  kind: 'probe' as const,
                  source: `CometBFT RPC /commit via ${signing.source}`,
                  text: `${missingNow ? 'missed' : 'signed'} the latest commit counted (height ${signing.toHeight})`,
                  at: signing.at,
                },
              ]
            : []),
        ],
      },
    ]
  },
  summary: (d) =>
    `missed ${d.missed} of the last ${d.window} blocks: jailed after ${d.remaining} more missed block${d.remaining === 1 ? '' : 's'}${
      d.blockTimeMs ? ` (~${humanAge(d.remaining * d.blockTimeMs)} at the recent block time of ${(d.blockTimeMs / 1000).toFixed(1)}s)` : ''
    }`,
  cause: (d) =>
    `x/slashing counts the blocks ${d.valcons} did not sign in its window of ${d.window} (only an absent vote is a miss); past ${d.maxMissed} misses (${Math.round(
      d.minSignedPerWindow * 100,
    )}% must be signed) the chain jails it for ${humanAge(d.jailSeconds * 1000)} and slashes its stake${d.missingNow ? '; it missed the latest block too, so the counter still climbs' : '; the latest block was signed, so the counter falls as the misses leave the window'}${
      d.height !== undefined && d.height < d.earliestJailHeight ? ` (it cannot be jailed before height ${d.earliestJailHeight})` : ''
    }`,
  action: (d, on) =>
    d.missingNow
      ? `Bring the validator back to signing now: kubectl chainnode doctor ${nodeArgs(on)} (node synced, signer connected: kubectl chainnode signer ${nodeArgs(on)}); every block it misses brings the jail one block closer.`
      : `Watch the counter fall (kubectl chainnode status ${nodeArgs(on)} -o wide, WINDOW column); find why it missed blocks in the app log (kubectl chainnode logs ${nodeArgs(on)}).`,
})
