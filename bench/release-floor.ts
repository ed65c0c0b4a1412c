/**
 * The floors under the single executable's rows of bench/commands.ts, built the way scripts/release.mjs builds ours
 * (Node 24 of the release, its code cache, postject): an empty executable (Node's own start) and release-floor.cjs
 * (Node's start, TLS, HTTP/2 and a command's own requests, answers parsed, nothing of ours).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { load } from 'js-yaml'
import { releaseNodeDir } from '../scripts/release-node.mjs'

const root = path.resolve(import.meta.dirname, '..')

function buildExecutable(main: string, dir: string, name: string): string {
  const node = path.join(releaseNodeDir(`linux-${process.arch}`), 'package', 'bin', 'node')
  if (!existsSync(node)) throw new Error(`${node} is missing: npm run release`)
  const config = path.join(dir, `${name}.sea.json`)
  const blob = path.join(dir, `${name}.blob`)
  writeFileSync(config, JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }))
  execFileSync(node, ['--experimental-sea-config', config], { stdio: 'ignore' })
  const exe = path.join(dir, name)
  copyFileSync(node, exe)
  chmodSync(exe, 0o755)
  execFileSync(
    path.join(root, 'node_modules', '.bin', 'postject'),
    [exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'],
    { stdio: 'ignore' },
  )
  return exe
}

/** An executable whose main script is empty, and one whose main script is release-floor.cjs, in dir. */
export function buildReleaseFloors(dir: string): { empty: string; floor: string } {
  const emptyMain = path.join(dir, 'empty.cjs')
  writeFileSync(emptyMain, '')
  return { empty: buildExecutable(emptyMain, dir, 'empty'), floor: buildExecutable(path.join(root, 'bench', 'release-floor.cjs'), dir, 'floor') }
}

/** What a metadata-only list asks for (src/cluster/targets.ts), a log any text, the rest JSON. */
const acceptOf = (requestPath: string, metadataOnly: boolean) =>
  /\/log(?:\?|$)/.test(requestPath)
    ? '*/*'
    : metadataOnly
      ? 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json'
      : 'application/json'

/** The paths a command line reads, from its --debug lines. */
export function requestsOf(command: string[], line: string[], env: NodeJS.ProcessEnv): string[] {
  const result = spawnSync(command[0], [...command.slice(1), ...line, '--debug'], { env, encoding: 'utf8' })
  const paths = [...result.stderr.matchAll(/\bGET (\/\S+)/g)].map((m) => m[1])
  if (paths.length === 0) throw new Error(`${line.join(' ')} --debug printed no requests:\n${result.stderr}`)
  return paths
}

/**
 * The environment of release-floor.cjs: the API server and token of the kubeconfig in env, and the paths to read.
 * metadataOnly: the kinds (plural resource names) read as metadata only (status: configmaps).
 */
export function floorEnv(paths: string[], env: NodeJS.ProcessEnv, metadataOnly: string[] = []): NodeJS.ProcessEnv {
  const kubeconfig = load(readFileSync(env.KUBECONFIG!, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[]
    users: { name: string; user: { token?: string } }[]
    contexts: { name: string; context: { user: string } }[]
    'current-context': string
  }
  const userName = kubeconfig.contexts.find((c) => c.name === kubeconfig['current-context'])!.context.user
  const isMetadataOnly = (p: string) => metadataOnly.some((resource) => new RegExp(`/${resource}(?:\\?|$)`).test(p))
  return {
    ...env,
    FLOOR_SERVER: kubeconfig.clusters[0].cluster.server,
    FLOOR_CA: Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString('utf8'),
    FLOOR_TOKEN: kubeconfig.users.find((u) => u.name === userName)!.user.token,
    FLOOR_REQUESTS: paths.map((p) => `${acceptOf(p, isMetadataOnly(p))}\t${p}`).join('\n'),
  }
}
