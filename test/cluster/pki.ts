import { execFileSync } from 'node:child_process'
import path from 'node:path'

/** openssl req arguments for a new P-256 key, unencrypted, written to keyFile. */
export const newEcKey = (keyFile: string): string[] => ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile]

/** A self-signed EC certificate made with openssl, for test servers and for "wrong CA" cases. */
export function selfSignedCert(dir: string, name: string, subjectAltName?: string): { key: string; cert: string } {
  const key = path.join(dir, `${name}.key`)
  const cert = path.join(dir, `${name}.crt`)
  const san = subjectAltName ? ['-addext', `subjectAltName=${subjectAltName}`] : []
  execFileSync('openssl', ['req', '-x509', ...newEcKey(key), '-out', cert, '-days', '1', '-subj', `/CN=${name}`, ...san], { stdio: 'ignore' })
  return { key, cert }
}
