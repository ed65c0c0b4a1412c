import { chainProbeOf } from '../snapshot/chain.js'
import { refOf } from '../snapshot/index.js'
import { defineRule } from '../engine/define-rule.js'
import { humanAge } from '../util/duration.js'

/** Less than this left in the voting period is a warning. */
export const VOTE_CLOSE_MS = 24 * 3_600_000

interface Unvoted {
  account: string
  valoper?: string
  proposals: { id: string; title: string; votingEndTime?: string; leftMs?: number }[]
  closest?: { id: string; leftMs: number }
  binary: string
  chainId?: string
  source: string
}

/**
 * Proposals in their voting period (gov v1) that the validator has not voted on: its delegators' stake votes with
 * it unless they vote themselves, and many chains count a validator's participation.
 */
export default defineRule<Unvoted>({
  id: 'governance-vote',
  title: 'Governance proposal the validator has not voted on',
  severity: 'info',
  severityNote: '(warning when less than a day of the voting period is left)',
  specRow: "Issue 41: governance (a proposal in its voting period without the validator's vote)",
  suppressedBy: ['validator-tombstoned'],
  check({ index, node, pod, now }) {
    if (!node.spec?.validator) return []
    const cosmos = chainProbeOf(index.snapshot, pod)?.chain?.cosmos
    const votes = cosmos?.validator?.votes
    if (!cosmos || !votes || !cosmos.proposals || !cosmos.validator?.account) return []
    // The reading's own time, so a bundle read later words the time left as it was.
    const at = Date.parse(cosmos.at) || now
    const proposals = cosmos.proposals
      .filter((p) => Object.hasOwn(votes, p.id) && votes[p.id] === null)
      .map((p) => ({ ...p, leftMs: p.votingEndTime ? Math.max(0, Date.parse(p.votingEndTime) - at) : undefined }))
    if (!proposals.length) return []
    const timed = proposals.filter((p) => p.leftMs !== undefined).sort((a, b) => a.leftMs! - b.leftMs!)
    const closest = timed[0] ? { id: timed[0].id, leftMs: timed[0].leftMs! } : undefined
    return [
      {
        subject: refOf(node),
        severity: closest && closest.leftMs < VOTE_CLOSE_MS ? 'warning' : 'info',
        data: {
          account: cosmos.validator.account,
          valoper: cosmos.validator.valoper,
          proposals: proposals.map(({ id, title, votingEndTime, leftMs }) => ({ id, title, votingEndTime, leftMs })),
          closest,
          binary: node.spec?.app?.app ?? '<app>',
          chainId: node.status?.chainID,
          source: cosmos.source,
        },
        evidence: [
          {
            kind: 'probe',
            source: `abci_query /cosmos.gov.v1.Query/Proposals (voting period) and /cosmos.gov.v1.Query/Vote via ${cosmos.source}`,
            text: proposals
              .map((p) => `proposal ${p.id} "${p.title}" ends ${p.votingEndTime ?? '(unknown)'}: no vote from ${cosmos.validator!.account}`)
              .join('; '),
            at: cosmos.at,
          },
        ],
      },
    ]
  },
  summary: (d) =>
    `has not voted on ${d.proposals.length === 1 ? `proposal ${d.proposals[0].id} "${d.proposals[0].title}"` : `${d.proposals.length} proposals (${d.proposals.map((p) => p.id).join(', ')})`}${
      d.closest ? `; voting on ${d.closest.id} ends in ${humanAge(d.closest.leftMs)}` : ''
    }`,
  cause: () =>
    "the proposal is in its voting period and the chain holds no vote from the validator's account; a validator that does not vote leaves its delegators without one",
  action: (d) =>
    `Vote from the validator's account: ${d.binary} tx gov vote ${d.closest?.id ?? d.proposals[0].id} <yes|no|abstain|no_with_veto> --from <validator account>${d.chainId ? ` --chain-id ${d.chainId}` : ''} (${d.account}).`,
})
