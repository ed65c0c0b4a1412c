import { chainProbeOf } from '../snapshot/chain.js'
import { refOf } from '../snapshot/index.js'
import { defineRule, nodeArgs } from '../engine/define-rule.js'
import { field, cosmosQuery } from '../engine/evidence.js'

interface Tombstoned {
  valcons: string
  valoper?: string
  jailedUntil?: string
  doubleSignSlash?: number
  binary: string
  chainId?: string
  source: string
}

/**
 * x/evidence tombstones a validator whose double sign was committed as evidence: jailed for good (jailed_until far
 * in the future), slashed, and its consensus key can never sign again. Read from the chain's signing info.
 */
export default defineRule<Tombstoned>({
  id: 'validator-tombstoned',
  title: 'Validator tombstoned for a double sign',
  severity: 'error',
  specRow: 'Issue 41: tombstoned (x/slashing signing info tombstoned: the key can never be unjailed)',
  check({ index, node, pod }) {
    if (!node.spec?.validator) return []
    const cosmos = chainProbeOf(index.snapshot, pod)?.chain?.cosmos
    const info = cosmos?.validator?.signingInfo
    if (!cosmos || !info?.tombstoned) return []
    return [
      {
        subject: refOf(node),
        data: {
          valcons: cosmos.validator!.valcons ?? info.address,
          valoper: cosmos.validator!.valoper,
          jailedUntil: info.jailedUntil,
          doubleSignSlash: cosmos.slashing?.slashFractionDoubleSign,
          binary: node.spec?.app?.app ?? '<app>',
          chainId: node.status?.chainID,
          source: cosmos.source,
        },
        evidence: [
          cosmosQuery(cosmos, 'slashing.v1beta1.Query/SigningInfo', `${info.address}: tombstoned true, jailed_until ${info.jailedUntil ?? '(unset)'}`),
          ...(cosmos.validator?.staking
            ? [
                cosmosQuery(
                  cosmos,
                  'staking.v1beta1.Query/Validator',
                  `${cosmos.validator.staking.operatorAddress}: jailed ${cosmos.validator.staking.jailed}, status ${cosmos.validator.staking.status}`,
                ),
              ]
            : []),
          field(node, '.status.jailed', node.status?.jailed),
        ],
      },
    ]
  },
  summary: (d) => `validator ${d.valoper ?? d.valcons} is tombstoned: the chain committed evidence of a double sign`,
  cause: (d) =>
    `two processes signed with the consensus key of ${d.valcons} (a second node, a restored backup or a failover that ran beside the first); the chain jailed it for good${
      d.doubleSignSlash !== undefined ? ` and slashed ${Math.round(d.doubleSignSlash * 10000) / 100}% of its stake` : ''
    }. A tombstoned key can never be unjailed, unlike a downtime jailing`,
  action: (d, on) =>
    `Stop every process that still holds this key first (kubectl chainnode doctor ${nodeArgs(on)} -A lists the holders; double-sign-risk names them). The validator cannot come back: create a new validator from a new operator account with a new consensus key (${d.binary} tx staking create-validator${d.chainId ? ` --chain-id ${d.chainId}` : ''}) and ask the delegators of ${d.valoper ?? 'the old valoper'} to redelegate; do not unjail (the chain refuses it).`,
})
