/**
 * A fault-injecting HTTPS proxy on loopback in front of the test cluster's API server: it adds
 * latency, answers 429 with Retry-After, or dies in the middle of a run (connections included,
 * WebSocket port-forwards too). Tests point the CLI at it through the kubeconfig it writes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import type { Socket } from 'node:net'
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
