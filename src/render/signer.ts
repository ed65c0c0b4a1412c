import type { Palette } from './palette.js'
import { LEGACY_ADVICE, SECRETS_STORE_ADVICE, type SignerReport } from '../analysis/signer-report.js'
import { columns, describeBlock } from './columns.js'
import { visible, visibleOrNone } from './visible.js'

const mark = (palette: Palette, probe?: { ok: boolean; detail: string }) =>
  probe ? palette.paint(probe.ok ? 'ok' : 'error', visible(probe.detail)) : 'not probed'

export function renderSignerReport(report: SignerReport, palette: Palette): string {
  const out = [palette.paint('subject', `ChainNode ${visible(report.node)}`) + palette.paint('muted', ` (operator line ${report.line})`)]
  const s = report.signer
  if (!s && !report.legacy) out.push('  This node uses no signer (no cosmosigner-target label, no legacy signer).')
  if (s) {
    out.push(
      describeBlock(
        [
          ['Remote signer', visible(s.name)],
          ['Discovery', visible(s.discoveryService ? `Service ${s.name}-privval, ${s.endpoints} endpoint(s)` : `Service ${s.name}-privval missing`)],
          ['Replicas', visibleOrNone(s.replicas)],
          [
            'Signer image',
            `${visible(s.image ?? '<none>')} (${s.version === 'ok' ? `>= ${s.minimum}` : s.version === 'old' ? palette.paint('error', `older than ${s.minimum}`) : palette.paint('warning', 'unknown version')})`,
          ],
          [
            'node-utils',
            `${visible(report.nodeUtils.image ?? '<none>')} (${report.nodeUtils.version === 'ok' ? `>= ${report.nodeUtils.minimum}` : report.nodeUtils.version === 'old' ? palette.paint('error', `older than ${report.nodeUtils.minimum}`) : palette.paint('warning', 'unknown version')})`,
          ],
        ],
        2,
      ),
    )
    if (s.instances.length) {
      out.push(
        '  Instances:',
        columns(
          ['pod', 'phase', 'livez', 'readyz'],
          s.instances.map((i) => [visible(i.pod), visible(i.phase), mark(palette, i.livez), mark(palette, i.readyz)]),
        ).replace(/^/gm, '    '),
      )
    }
    if (s.gate.length) out.push('  Gate (TCP 26659, data required):', ...s.gate.map((g) => `    ${visible(g.target)}: ${mark(palette, g)}`))
  }
  if (report.legacy) {
    const l = report.legacy
    out.push(
      describeBlock(
        [
          ['Legacy signer', l.containers.length ? `containers ${visible(l.containers.join(', '))}` : 'configured (.spec.validator.tmKMS)'],
          ['autoRenewToken', String(l.autoRenewToken)],
          ['uploadGenerated', String(l.uploadGenerated)],
        ],
        2,
      ),
      `  ${palette.paint('warning', LEGACY_ADVICE)}`,
      ...l.permissionErrors.map((e) => `  ${e.at ? `${visible(e.at)}  ` : ''}${palette.paint('muted', visible(e.source))}: ${visible(e.text)}`),
      ...(l.permissionErrors.length ? [`  ${SECRETS_STORE_ADVICE}`] : []),
    )
  }
  out.push(
    report.problems.length
      ? palette.paint('error', `Problems:\n${report.problems.map((p) => `  - ${visible(p)}`).join('\n')}`)
      : palette.paint('ok', 'No problems found on the signing path.'),
  )
  return out.join('\n')
}
