// The container image of `chainnode serve` (and of every command), written as an OCI image layout without a
// container daemon: one layer holding the single executable's folder in /app, the C libraries it links (read with
// ldd, copied from this machine), /etc/passwd and /etc/group with the non-root user 65532, and /tmp. Called by
// scripts/release.mjs for the linux-x64 executable; README "Continuous checks" says how to push it.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import * as tar from 'tar'

export const IMAGE_USER = 65532
const MTIME = new Date('2026-01-01T00:00:00Z')

/** The shared libraries an ELF executable loads, the dynamic loader included, as absolute paths. */
export function linkedLibraries(executable) {
  const out = execFileSync('ldd', [executable], { encoding: 'utf8' })
  return [...out.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x[0-9a-f]+\)/g)].map((m) => m[1])
}

const sha256 = (buffer) => createHash('sha256').update(buffer).digest('hex')

/** Write blob into the layout's blobs/sha256/ and describe it. */
function blob(layout, mediaType, buffer) {
  const digest = sha256(buffer)
  writeFileSync(path.join(layout, 'blobs', 'sha256', digest), buffer)
  return { mediaType, digest: `sha256:${digest}`, size: buffer.length }
}

/**
 * stage: the release folder of the executable (kubectl-chainnode, lib/, docs/, package.json, ...).
 * Returns the layout folder, the archive of it, and the size of the layer.
 */
export async function writeOciImage({ stage, out, name, version, source, revision }) {
  const work = mkdtempSync(path.join(tmpdir(), 'chainnode-oci-'))
  try {
    const root = path.join(work, 'rootfs')
    mkdirSync(path.join(root, 'etc'), { recursive: true })
    cpSync(stage, path.join(root, 'app'), { recursive: true, filter: (file) => !file.endsWith('kubectl_complete-chainnode') })
    for (const library of linkedLibraries(path.join(stage, 'kubectl-chainnode'))) {
      mkdirSync(path.join(root, path.dirname(library)), { recursive: true })
      copyFileSync(library, path.join(root, library)) // follows the link: the image holds the file itself
    }
    writeFileSync(path.join(root, 'etc', 'passwd'), `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${IMAGE_USER}:${IMAGE_USER}:nonroot:/tmp:/sbin/nologin\n`)
    writeFileSync(path.join(root, 'etc', 'group'), `root:x:0:\nnonroot:x:${IMAGE_USER}:\n`)
    mkdirSync(path.join(root, 'tmp'))
    chmodSync(path.join(root, 'tmp'), 0o1777)

    const layerTar = path.join(work, 'layer.tar')
    // Portable headers drop group and other write bits; /tmp must stay world-writable and sticky for user 65532, so
    // its entry alone is written with its own mode (owned by root, as in any image).
    const keepTmpMode = (entry) => {
      if (entry.type !== 'Directory' || !/^(\.\/)?tmp\/?$/.test(entry.path)) return
      entry.portable = false
      entry.stat.uid = 0
      entry.stat.gid = 0
    }
    await tar.create({ file: layerTar, cwd: root, portable: true, mtime: MTIME, noDirRecurse: false, onWriteEntry: keepTmpMode }, ['.'])
    const uncompressed = readFileSync(layerTar)
    const layout = path.join(out, `${name}-${version}-linux-x64`)
    rmSync(layout, { recursive: true, force: true })
    mkdirSync(path.join(layout, 'blobs', 'sha256'), { recursive: true })
    const layer = blob(layout, 'application/vnd.oci.image.layer.v1.tar+gzip', gzipSync(uncompressed, { level: 9 }))
    const labels = {
      'org.opencontainers.image.title': name,
      'org.opencontainers.image.version': version,
      'org.opencontainers.image.source': source,
      ...(revision ? { 'org.opencontainers.image.revision': revision } : {}),
      'org.opencontainers.image.licenses': 'MIT',
    }
    const config = blob(
      layout,
      'application/vnd.oci.image.config.v1+json',
      Buffer.from(
        JSON.stringify({
          created: MTIME.toISOString(),
          architecture: 'amd64',
          os: 'linux',
          config: {
            User: `${IMAGE_USER}:${IMAGE_USER}`,
            Entrypoint: ['/app/kubectl-chainnode'],
            Cmd: ['serve', '-A'],
            WorkingDir: '/app',
            Env: ['PATH=/app', 'HOME=/tmp', 'KUBECTL_CHAINNODE_STATE_DIR=/tmp/chainnode'],
            ExposedPorts: { '9844/tcp': {} },
            Labels: labels,
          },
          rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(uncompressed)}`] },
          history: [{ created: MTIME.toISOString(), created_by: 'scripts/oci-image.mjs' }],
        }),
      ),
    )
    const manifest = blob(
      layout,
      'application/vnd.oci.image.manifest.v1+json',
      Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config, layers: [layer], annotations: labels })),
    )
    const index = {
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [{ ...manifest, platform: { architecture: 'amd64', os: 'linux' }, annotations: { 'org.opencontainers.image.ref.name': version } }],
    }
    writeFileSync(path.join(layout, 'index.json'), JSON.stringify(index))
    writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }))
    // The same layout as one file (an oci-archive: skopeo copy oci-archive:..., podman load -i ...).
    const archive = `${layout}.tar`
    await tar.create({ file: archive, cwd: layout, portable: true, mtime: MTIME }, ['oci-layout', 'index.json', 'blobs'])
    return { layout, archive, layerBytes: layer.size, uncompressedBytes: statSync(layerTar).size }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
