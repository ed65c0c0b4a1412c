// What a Node run pays before any command code: the runtime's start, then the first TLS context that trusts
// the kubeconfig's CA (Node 20 parses its ~140 bundled root certificates into that context, ~17 ms).
// bench/commands.ts runs it as the floor under every npm row. Usage: node bench/tls-floor.cjs (reads KUBECONFIG)
'use strict'
const { readFileSync } = process.getBuiltinModule('node:fs')
const tls = process.getBuiltinModule('node:tls')
const text = readFileSync(process.env.KUBECONFIG, 'utf8')
// The test cluster's kubeconfig folds the base64 CA onto the next line (">-").
const match = /certificate-authority-data:\s*(?:>-\s*)?([A-Za-z0-9+/=]+)/.exec(text)
if (!match) throw new Error('no certificate-authority-data in KUBECONFIG')
tls.createSecureContext({ ca: Buffer.from(match[1], 'base64') })
