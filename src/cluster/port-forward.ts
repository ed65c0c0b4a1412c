import net from 'node:net'
import { onInterrupt } from '../util/cleanup.js'
import { usageError } from '../util/errors.js'
import type { Credentials } from './auth.js'
import { Tunnel, type TunnelPort } from './port-tunnel.js'

export interface PortForwardHandle {
  localPort: number
  /** Messages the node side sent on the error channel (e.g. nothing listening on the Pod port), or the API server's refusal. */
  errors: string[]
  close(): Promise<void>
}

/**
 * One local connection carried byte for byte over a port-forward of its own, as kubectl port-forward carries each
 * connection it accepts. The local side is read from once the forward is upgraded (it is paused until then).
 */
class ForwardedConnection implements TunnelPort {
  ended = false

  constructor(
    private readonly tunnel: Tunnel<ForwardedConnection>,
    private readonly index: number,
    private readonly local: net.Socket,
    private readonly errors: string[],
  ) {}

  get busy(): boolean {
    return !this.ended
  }

  upgraded(): void {
    this.local.on('data', (bytes: Buffer) => {
      if (!this.ended) this.tunnel.send(this.index, bytes)
    })
    this.local.resume()
  }

  data(payload: Buffer): void {
    this.local.write(payload)
  }

  /** The Pod side failed (nothing listens on the port): recorded, and the local connection hung up. */
  errorData(text: string): void {
    if (!text.trim()) return
    this.errors.push(text.trim())
    this.ended = true
    this.local.destroy()
    this.tunnel.release()
  }

  close(reason?: string): void {
    if (this.ended) return
    this.ended = true
    const refused = this.tunnel.refusal?.message
    if (refused || reason) {
      this.errors.push(refused ?? reason!)
      this.local.destroy()
    } else this.local.end()
  }
}

/**
 * Forward 127.0.0.1:localPort to a Pod port through the API server, like kubectl port-forward: each connection accepted
 * there gets its own port-forward (cluster/port-tunnel.ts, the one the chain probe uses), the TLS context and session
 * of the run's API connection reused.
 */
export async function openPortForward(
  server: string,
  credentials: Credentials,
  namespace: string,
  pod: string,
  podPort: number,
  localPort = 0,
): Promise<PortForwardHandle> {
  const errors: string[] = []
  const tunnels = new Set<Tunnel<ForwardedConnection>>()
  const listener = net.createServer((socket) => {
    socket.on('error', () => socket.destroy())
    socket.pause()
    Tunnel.open<ForwardedConnection>(
      { server, credentials, namespace, pod, ports: [podPort] },
      (tunnel, index) => new ForwardedConnection(tunnel, index, socket, errors),
    ).then(
      (tunnel) => {
        const done = () => {
          tunnel.destroy()
          tunnels.delete(tunnel)
        }
        // A connection already gone while its forward opened ends that forward at once.
        if (socket.destroyed) return done()
        tunnels.add(tunnel)
        socket.on('close', done)
        tunnel.hold()
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
  const stop = () => {
    for (const tunnel of tunnels) tunnel.destroy()
    tunnels.clear()
  }
  const release = onInterrupt(() => {
    stop()
    listener.close()
  })
  return {
    localPort: (listener.address() as net.AddressInfo).port,
    errors,
    close: async () => {
      release()
      stop()
      await new Promise<void>((resolve) => listener.close(() => resolve()))
    },
  }
}
