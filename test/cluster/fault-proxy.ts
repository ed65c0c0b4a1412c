/**
 * A fault-injecting HTTPS proxy on loopback in front of the test cluster's API server: it adds
 * latency, answers 429 with Retry-After, or dies in the middle of a run (connections included,
 * WebSocket port-forwards too). Tests point the CLI at it through the kubeconfig it writes.
 * startTcpRelay is its counterpart below TLS: it leaves HTTP/2 to the real API server and makes the held
 * connections silent or cut.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import { connect, createServer, type Socket } from 'node:net'
import path from 'node:path'
import tls from 'node:tls'
import type { ClusterState } from './kube.js'
import { selfSignedCert } from './pki.js'

export interface FaultProxy {
  kubeconfigPath: string
  /** Requests seen, upgrades (port-forwards) included. */
  requests: number
  /** Requests answered with 429. */
  throttled: number
  delayMs: number
  /** Answer the next n requests with 429 Too Many Requests and this Retry-After (seconds). */
  throttle(n: number, retryAfterSeconds: number): void
  /** Stop accepting and drop every open connection, as a crashed API server would. */
  kill(): void
  /**
   * Kill when a request for a matching path arrives: reads go out in parallel, so a plain count
   * cannot say which of them got through, but a read that depends on others comes after them.
   */
  killOn(path: RegExp): void
  /** Hold requests for matching paths this long before passing them on: a server slow on some reads only. */
  slowOn(path: RegExp, delayMs: number): void
}

export async function startFaultProxy(state: ClusterState, dir: string): Promise<FaultProxy> {
  const { key, cert } = selfSignedCert(dir, 'fault-proxy', 'IP:127.0.0.1')
  const target = new URL(state.server)
  const ca = readFileSync(state.caPath)
  const sockets = new Set<Socket>()
  let throttleLeft = 0
  let retryAfter = 1
  let killOnPath: RegExp | undefined
  let slow: { path: RegExp; delayMs: number } | undefined
  let dead = false

  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) })
  const proxy: FaultProxy = {
    kubeconfigPath: path.join(dir, 'proxy-kubeconfig'),
    requests: 0,
    throttled: 0,
    delayMs: 0,
    throttle(n, seconds) {
      throttleLeft = n
      retryAfter = seconds
    },
    kill() {
      if (dead) return
      dead = true
      server.close()
      for (const socket of sockets) socket.destroy()
    },
    killOn(path) {
      killOnPath = path
    },
    slowOn(path, delayMs) {
      slow = { path, delayMs }
    },
  }
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const counted = (path = '') => {
    proxy.requests++
    if (killOnPath?.test(path)) {
      proxy.kill()
      return false
    }
    return true
  }
  server.on('request', (req, res) => {
    if (!counted(req.url)) return
    if (throttleLeft > 0) {
      throttleLeft--
      proxy.throttled++
      res.writeHead(429, { 'Retry-After': String(retryAfter), 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'too many requests', reason: 'TooManyRequests', code: 429 }))
      return
    }
    setTimeout(
      () => {
        if (dead) return res.destroy()
        const upstream = https.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, ca }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        })
        upstream.on('error', () => res.destroy())
        req.pipe(upstream)
      },
      proxy.delayMs + (slow?.path.test(req.url ?? '') ? slow.delayMs : 0),
    )
  })
  server.on('upgrade', (req, socket: Socket, head: Buffer) => {
    if (!counted()) return socket.destroy()
    sockets.add(socket)
    const upstream = tls.connect({ host: target.hostname, port: Number(target.port), ca, servername: 'localhost' }, () => {
      const lines = [
        `${req.method} ${req.url} HTTP/1.1`,
        ...Object.entries(req.headers).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`),
        '',
        '',
      ]
      upstream.write(lines.join('\r\n'))
      if (head.length) upstream.write(head)
      upstream.pipe(socket)
      socket.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('error', () => socket.destroy())
    socket.on('error', () => upstream.destroy())
    socket.on('close', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  writeFileSync(
    proxy.kubeconfigPath,
    `apiVersion: v1
kind: Config
current-context: proxy
clusters: [{name: proxy, cluster: {server: "https://127.0.0.1:${port}", certificate-authority-data: ${readFileSync(cert).toString('base64')}}}]
users: [{name: admin, user: {token: ${state.adminToken}}}]
contexts: [{name: proxy, context: {cluster: proxy, user: admin, namespace: default}}]
`,
  )
  return proxy
}

export interface TcpRelay {
  /** A kubeconfig like the cluster's, pointing at the relay (TLS passes through: serve speaks HTTP/2 to the real API server). */
  kubeconfigPath: string
  /** Connections accepted since the start. */
  accepted: number
  /** Connections open now. */
  open: () => number
  /**
   * Make every open connection silent for good, as a load balancer or NAT dropping the flow would: nothing
   * is passed on in either direction and nothing is closed. Connections made later are relayed as usual.
   */
  blackHoleOpen(): void
  /** Refuse new connections and reset the open ones (an API server gone away); `restore` listens again. */
  cut(): void
  restore(): Promise<void>
  close(): void
}

/** A TCP relay on loopback in front of the API server: faults below TLS, on the connections serve holds. */
export async function startTcpRelay(server: string, kubeconfig: string, dir: string): Promise<TcpRelay> {
  const target = new URL(server)
  const pairs = new Set<{ client: Socket; upstream: Socket }>()
  const silenced: Socket[] = []
  const relay = createServer((client) => {
    state.accepted++
    const upstream = connect(Number(target.port), target.hostname)
    const pair = { client, upstream }
    pairs.add(pair)
    client.pipe(upstream).pipe(client)
    const drop = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  const port = (relay.address() as { port: number }).port
  const kubeconfigPath = path.join(dir, 'relay-kubeconfig')
  writeFileSync(kubeconfigPath, readFileSync(kubeconfig, 'utf8').replaceAll(server, `https://127.0.0.1:${port}`))
  const state: TcpRelay = {
    kubeconfigPath,
    accepted: 0,
    open: () => pairs.size,
    blackHoleOpen() {
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream)
        upstream.unpipe(client)
        // Paused sockets read nothing more: what either side sends stays in the kernel's buffers, unanswered.
        client.pause()
        upstream.pause()
        silenced.push(client, upstream)
      }
      pairs.clear()
    },
    cut() {
      relay.close()
      for (const { client, upstream } of pairs) {
        client.destroy()
        upstream.destroy()
      }
    },
    restore: () => new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve)),
    close() {
      state.cut()
      for (const socket of silenced) socket.destroy()
    },
  }
  return state
}
