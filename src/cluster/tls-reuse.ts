import tls from 'node:tls'
import type { Credentials } from './auth.js'

/**
 * What every TLS connection of one set of credentials to one API server can share: the secure context (the CA,
 * the client certificate and key parsed once, not once per connection) and the latest session the server handed
 * out, which a later connection resumes instead of a full handshake: no certificate sent, checked and verified
 * again on either side. The API connection's session seeds the port-forwards' (a fleet's dozens of them open at
 * once, long after it). Keyed by the credentials object: a session resumed carries the client certificate it was
 * made with, so another user's connection never resumes it.
 */
interface Reuse {
  context: tls.SecureContext
  sessions: Map<string, Buffer>
}

const reused = new WeakMap<Credentials, Reuse>()

function reuseOf(credentials: Credentials): Reuse {
  let entry = reused.get(credentials)
  if (!entry) {
    const { ca, cert, key } = credentials
    entry = { context: tls.createSecureContext({ ca, cert, key }), sessions: new Map() }
    reused.set(credentials, entry)
  }
  return entry
}

/** The options of a TLS connection to `server` with these credentials: the shared context and the session to resume. */
export function sharedTls(server: string, credentials: Credentials): Pick<tls.ConnectionOptions, 'secureContext' | 'session'> {
  const { context, sessions } = reuseOf(credentials)
  return { secureContext: context, session: sessions.get(new URL(server).host) }
}

/** Keep the sessions a connection receives (TLS 1.3 sends them after the handshake) for the next connections. */
export function keepSessions(socket: tls.TLSSocket, server: string, credentials: Credentials): void {
  const { sessions } = reuseOf(credentials)
  const host = new URL(server).host
  socket.on('session', (session: Buffer) => sessions.set(host, session))
}
