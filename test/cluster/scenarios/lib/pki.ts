/**
 * A self-signed serving certificate for the webhook Service, as cert-manager's selfSigned
 * Issuer makes it (the certificate is its own CA; caBundle = the certificate).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { X509Certificate } from 'node:crypto'
import { join } from 'node:path'

export interface ServingCert {
  certPem: string
  keyPem: string
}

export function webhookServingCert(dir: string, release: string, namespace: string): ServingCert {
  const base = join(dir, 'scenario-pki')
  mkdirSync(base, { recursive: true })
  const crt = join(base, `${namespace}-${release}.crt`)
  const key = join(base, `${namespace}-${release}.key`)
  if (existsSync(crt) && existsSync(key)) {
    const cert = new X509Certificate(readFileSync(crt))
    if (new Date(cert.validTo).getTime() > Date.now() + 86_400_000) {
      return { certPem: readFileSync(crt, 'utf8'), keyPem: readFileSync(key, 'utf8') }
    }
  }
  const svc = `${release}-webhook.${namespace}.svc`
  const cnf = join(base, `${namespace}-${release}.cnf`)
  writeFileSync(
    cnf,
    [
      '[req]',
      'distinguished_name = dn',
      'x509_extensions = v3',
      'prompt = no',
      '[dn]',
      `CN = ${svc}`,
      '[v3]',
      'basicConstraints = critical,CA:TRUE',
      'keyUsage = critical,digitalSignature,keyEncipherment,keyCertSign',
      'extendedKeyUsage = serverAuth',
      `subjectAltName = DNS:${svc},DNS:${svc}.cluster.local`,
      '',
    ].join('\n'),
  )
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '90', '-keyout', key, '-out', crt, '-config', cnf],
    { stdio: 'pipe' },
  )
  return { certPem: readFileSync(crt, 'utf8'), keyPem: readFileSync(key, 'utf8') }
}
