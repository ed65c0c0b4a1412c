import net from 'node:net'
import { Writable } from 'node:stream'
import { onInterrupt } from '../util/cleanup.js'
import { usageError } from '../util/errors.js'
import type { Credentials } from './auth.js'

export interface PortForwardHandle {
  localPort: number
  /** Messages the node side sent on the error channel (e.g. nothing listening on the Pod port). */
  errors: string[]
  close(): Promise<void>
}

const b64 = (text?: string) => (text ? Buffer.from(text).toString('base64') : undefined)

/**
 * Forward 127.0.0.1:localPort to a Pod port through the API server (WebSocket), like kubectl port-forward.
 * @kubernetes/client-node is loaded here only: nothing else in the tool pays for it.
 */
export async function openPortForward(
  server: string,
  credentials: Credentials,
  namespace: string,
  pod: string,
  podPort: number,
  localPort = 0,
): Promise<PortForwardHandle> {
  const { KubeConfig, PortForward } = await import('@kubernetes/client-node')
  const kc = new KubeConfig()
  const token = /^Bearer (.+)$/.exec(credentials.headers.Authorization ?? '')?.[1]
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, caData: b64(credentials.ca), skipTLSVerify: !credentials.rejectUnauthorized, tlsServerName: credentials.servername }],
    users: [{ name: 'u', token, certData: b64(credentials.cert), keyData: b64(credentials.key) }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  })
  const forwarder = new PortForward(kc)
  const errors: string[] = []
  const sockets = new Set<net.Socket>()
  const listener = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    // client-node leaves the local socket open when the node reports an error: record it and hang up.
    const errorChannel = new Writable({
      write(chunk, _encoding, done) {
        // The channel opens with an empty frame (the port prefix): only text is an error.
        const text = String(chunk).trim()
        if (text) {
          errors.push(text)
          socket.destroy()
        }
        done()
      },
    })
    forwarder.portForward(namespace, pod, [podPort], socket, errorChannel, socket).then(
      (ws) => {
        const sock = ws as unknown as { on(event: string, fn: (...args: unknown[]) => void): void; close(): void }
        sock.on('close', () => socket.end())
        sock.on('error', (error) => {
          errors.push(String((error as Error).message ?? error))
          socket.destroy()
        })
        socket.on('close', () => sock.close())
      },
      (error: Error) => {
        errors.push(error.message)
        socket.destroy()
      },
    )
  })
  await new Promise<void>((resolve, reject) => {
    listener.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? usageError(`local port ${localPort} is already in use`, 'pick another --local-port or omit it') : error),
    )
    listener.listen(localPort, '127.0.0.1', () => resolve())
  })
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      listener.close(() => resolve())
    })
  const release = onInterrupt(() => {
    for (const socket of sockets) socket.destroy()
    listener.close()
  })
  return {
    localPort: (listener.address() as net.AddressInfo).port,
    errors,
    close: async () => {
      release()
      await close()
    },
  }
}
