// The floor under the single executable's rows of bench/commands.ts: what any Node 24 single executable pays for a
// command's reads with nothing of ours in it. Node starts, opens one TLS connection with HTTP/2 to the API server (as
// the commands do), sends the GETs the command sent (FLOOR_REQUESTS: `accept<TAB>path` a line, the paths its --debug run printed),
// all at once (the command sends some only after others answer), reads every answer whole and parses the JSON ones.
// No kubeconfig parsing, no masking, no rules, no rendering: one line out. bench/release-floor.ts builds it into an
// executable the way scripts/release.mjs builds ours. Env: FLOOR_SERVER, FLOOR_CA (PEM), FLOOR_TOKEN, FLOOR_REQUESTS.
'use strict'
const tls = process.getBuiltinModule('node:tls')
const http2 = process.getBuiltinModule('node:http2')
const server = new URL(process.env.FLOOR_SERVER)
const requests = process.env.FLOOR_REQUESTS.split('\n')
  .filter(Boolean)
  .map((line) => line.split('\t'))
// As the commands do with NODE_EXTRA_CA_CERTS set (src/cluster/tls-reuse.ts): the CA given is the default list, so Node 24
// does not build its whole default store for the first context.
if (process.env.NODE_EXTRA_CA_CERTS) tls.setDefaultCACertificates([process.env.FLOOR_CA])
const socket = tls.connect({
  host: server.hostname,
  port: Number(server.port || 443),
  ca: process.env.FLOOR_CA,
  ALPNProtocols: ['h2'],
})
socket.once('secureConnect', () => {
  const session = http2.connect(server.origin, { createConnection: () => socket })
  let pending = requests.length
  let bytes = 0
  for (const [accept, path] of requests) {
    const stream = session.request({ ':path': path, authorization: `Bearer ${process.env.FLOOR_TOKEN}`, accept })
    const chunks = []
    let json = false
    stream.on('response', (headers) => (json = String(headers['content-type']).includes('json')))
    stream.on('data', (chunk) => chunks.push(chunk))
    stream.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      bytes += body.length
      if (json) JSON.parse(body)
      if (--pending === 0) {
        process.stdout.write(`${requests.length} answers, ${bytes} bytes\n`)
        session.close()
      }
    })
  }
})
socket.once('error', (error) => {
  process.stderr.write(`${error.message}\n`)
  process.exitCode = 1
})
