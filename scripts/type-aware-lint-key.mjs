// Which ESLint cache the type-aware lint of src/ may reuse (scripts/check.mjs).
//
// ESLint's cache keeps a file's results while the file and the configuration are unchanged. That is not enough for
// the type-aware rules (no-floating-promises, no-misused-promises): they also read the types a file imports, so a
// function made async in one file makes a floating promise of an unchanged caller. What those rules can see of
// other files is their declared shape: the .d.ts TypeScript derives from each file to decide which files a change
// affects, recorded by `tsc --incremental` as the file's signature. So one cache serves while every signature, the
// set of files, the compiler options and the tools stay the same; when any of them changes, the key changes and
// src/ is linted afresh into a new cache. Editing only the inside of functions keeps the key: the edited file is
// linted again because its content changed, the others keep their results. A fresh type check records a file's
// content but derives no shape from it, so the first edit of each file changes the key once (TypeScript itself then
// rechecks the files that import it, for the same reason).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

/** A file's shape as the build info records it: its signature, or its content's hash where no signature was derived. */
function shapeOf(fileInfo) {
  if (typeof fileInfo === 'string') return fileInfo
  return typeof fileInfo.signature === 'string' ? fileInfo.signature : fileInfo.version
}

/**
 * A key for the results of type-aware lint rules over the files of one TypeScript program, from the build info
 * `tsc --incremental` wrote for it and the versions of the tools that lint.
 */
export function typeAwareLintKey(buildInfoFile, toolVersions) {
  const info = JSON.parse(readFileSync(buildInfoFile, 'utf8'))
  const { tsBuildInfoFile: _ignored, ...options } = info.options ?? {}
  const shapes = (info.fileInfos ?? []).map(shapeOf)
  return createHash('sha256')
    .update(JSON.stringify([toolVersions, info.version, options, info.fileNames, shapes]))
    .digest('hex')
    .slice(0, 16)
}
