import { refOf } from '../snapshot/index.js'
import { LEGACY_SIGNER_CONTAINERS, podContainers } from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { SECRETS_STORE_REFUSAL, vaultProvider } from '../analysis/signer-context.js'
import { field } from '../engine/evidence.js'
import { grepLogs } from '../analysis/grep-logs.js'

export default defineRule<{ containers: string[]; autoRenewToken: boolean; uploadGenerated: boolean; permissionErrors: number }>({
  id: 'legacy-signer-in-use',
  title: 'Deprecated legacy signer (or autoRenewToken) still in use',
  severity: 'warning',
  specRow: '§5.4 / §9.4: the legacy signer, vault-token-renewer and autoRenewToken are deprecated',
  logs: ['legacy-signer'],
  suppressedBy: ['legacy-signing-refused'],
  check({ index, node, pod }) {
    const tmkms = node.spec?.validator?.tmKMS
    const containers = podContainers(pod)
      .map((c) => c.name)
      .filter((name) => (LEGACY_SIGNER_CONTAINERS as readonly string[]).includes(name))
    if (!tmkms && containers.length === 0) return []
    const autoRenewToken = Boolean(vaultProvider(tmkms)?.autoRenewToken)
    const uploadGenerated = Boolean(vaultProvider(tmkms)?.uploadGenerated)
    const permission = containers.flatMap((c) => grepLogs(index, pod, c, SECRETS_STORE_REFUSAL, 3))
    const evidence: Evidence[] = [
      ...(tmkms ? [field(node, '.spec.validator.tmKMS', '(set)')] : []),
      ...(autoRenewToken ? [field(node, '.spec.validator.tmKMS.provider.hashicorp.autoRenewToken', true)] : []),
      ...(uploadGenerated ? [field(node, '.spec.validator.tmKMS.provider.hashicorp.uploadGenerated', true)] : []),
      ...containers.map((c) => field(pod!, 'container', c)),
      ...permission,
    ]
    return [{ subject: refOf(node), data: { containers, autoRenewToken, uploadGenerated, permissionErrors: permission.length }, evidence }]
  },
  summary: (d) => `legacy signer in use${d.autoRenewToken ? ' with autoRenewToken (vault-token-renewer sidecar)' : ''}`,
  cause: (d) =>
    [
      'the legacy signer, its vault-token-renewer sidecar and autoRenewToken are deprecated and refused after the 5.0.0 line',
      d.permissionErrors
        ? `the secrets store refused operations (${d.permissionErrors} log lines): its token must permit the enabled operations${d.uploadGenerated ? ', including key upload (uploadGenerated)' : ''}`
        : '',
    ]
      .filter(Boolean)
      .join('; '),
  action: () =>
    'Migrate to the remote signer (it renews secrets-store tokens by itself); the migration must be completed on 4.x following the 5.0.0 upgrade guide.',
})
