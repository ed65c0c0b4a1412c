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
  /** Per host: the first connection's session on its way, or settled once it came or will not. */
  first: Map<string, Promise<void> | 'settled'>
}

/**
 * TLS 1.3 hands the session out right after the handshake (1.2 during it): one not in this long after the handshake
 * is not coming, and the connections waiting for it go on with a full handshake.
 */
const SESSION_GRACE_MS = 200
/** The longest a connection waits for the first one's session, whatever becomes of that one. */
const SESSION_WAIT_MS = 1000

const reused = new WeakMap<Credentials, Reuse>()

/** Node 22.19/24.5 and later (the single executable's runtime): the default CA list of contexts given none. */
const caDefaults = tls as typeof tls & {
  setDefaultCACertificates?: (certs: string[]) => void
  getCACertificates?: (type: 'bundled' | 'extra') => string[]
}
/** Whether the default CA list is this run's kubeconfig CA (trustOwnCaFirst), or must stay Node's (a context with none). */
let defaultCas: 'Node' | 'kubeconfig' | 'needed' = 'Node'

/**
 * With NODE_EXTRA_CA_CERTS set (many hosts set it for their own tools), Node 24 builds its whole default store (its
 * ~140 bundled roots and every certificate of that file, ~150 on a Debian host) on the first context given its own
 * CA: 4 to 18 ms of CPU of the release executable's status or events (bench/command-profile.ts, in
 * createSecureContext), where kubectl reads neither. Making the kubeconfig's CA the default list first leaves that
 * store one certificate to build. What a connection trusts does not change: every context of ours is given its CA
 * (the defaults apply only to a context without one; test/e2e/release.e2e.test.ts checks both); a later context that
 * has none (a cluster the kubeconfig gives no CA for, in a run over several contexts) gets Node's defaults back first.
 */
function trustOwnCaFirst(ca: string | undefined): void {
  const { setDefaultCACertificates: setDefaults, getCACertificates: defaultsOf } = caDefaults
  if (!setDefaults || !defaultsOf || !process.env.NODE_EXTRA_CA_CERTS) return
  if (ca === undefined) {
    if (defaultCas === 'kubeconfig') setDefaults([...defaultsOf('bundled'), ...defaultsOf('extra')])
    defaultCas = 'needed'
  } else if (defaultCas === 'Node') {
    try {
      setDefaults([ca])
      defaultCas = 'kubeconfig'
    } catch {
      // Not PEM: the context's own check of it reports what is wrong.
    }
  }
}

function reuseOf(credentials: Credentials): Reuse {
  let entry = reused.get(credentials)
  if (!entry) {
    const { ca, cert, key } = credentials
    trustOwnCaFirst(ca)
    entry = { context: tls.createSecureContext({ ca, cert, key }), sessions: new Map(), first: new Map() }
    reused.set(credentials, entry)
  }
  return entry
}

/** The options of a TLS connection to `server` with these credentials: the shared context and the session to resume. */
export function sharedTls(server: string, credentials: Credentials): Pick<tls.ConnectionOptions, 'secureContext' | 'session'> {
  const { context, sessions } = reuseOf(credentials)
  return { secureContext: context, session: sessions.get(new URL(server).host) }
}

/**
 * Keep the sessions a connection receives (TLS 1.3 sends them after the handshake) for the next connections. The
 * first connection to a host is the one the others wait for (sessionToResume).
 */
export function keepSessions(socket: tls.TLSSocket, server: string, credentials: Credentials): void {
  const { sessions, first } = reuseOf(credentials)
  const host = new URL(server).host
  socket.on('session', (session: Buffer) => sessions.set(host, session))
  if (sessions.has(host) || first.has(host)) return
  first.set(
    host,
    new Promise<void>((resolve) => {
      const timers: NodeJS.Timeout[] = []
      const settle = () => {
        first.set(host, 'settled')
        for (const timer of timers) clearTimeout(timer)
        resolve()
      }
      const after = (ms: number) => timers.push(setTimeout(settle, ms).unref())
      socket.once('session', settle)
      socket.once('close', settle)
      socket.once('secureConnect', () => (sessions.has(host) ? settle() : after(SESSION_GRACE_MS)))
      after(SESSION_WAIT_MS)
    }),
  )
}

/**
 * What a new connection to `server` waits for before its handshake: the first connection's session, while that one
 * is still on its way. A fleet's port-forwards open in the same few milliseconds as the API connection; without the
 * wait each made a full handshake (the server's certificate checked and turned into objects, the client's signed):
 * 26 of them cost the status of the scenario fleet about 60 ms of its one thread.
 */
export function sessionToResume(server: string, credentials: Credentials): Promise<void> | undefined {
  const { sessions, first } = reuseOf(credentials)
  const host = new URL(server).host
  const pending = first.get(host)
  return sessions.has(host) || pending === 'settled' ? undefined : pending
}
