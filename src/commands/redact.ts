import { realpathSync } from 'node:fs'
import path from 'node:path'
import type { Session } from './session.js'
import { readBundle, writeBundle } from '../snapshot/bundle.js'
import { redactSnapshot } from '../snapshot/redact.js'
import { ExitCode, usageError } from '../util/errors.js'
import { writeStderr } from '../util/output.js'
import { defineCommand, GLOBAL_FLAGS, type InputOf } from './flag-spec.js'

export const REDACT_COMMAND = defineCommand({
  summary: "Mask secrets in an existing bundle with this version's patterns, into a new bundle",
  description:
    "Reads the bundle as a stranger's file, masks tokens, keys, mnemonics and passwords in every object, log and probe answer, and writes the result to --out (a temporary name, then renamed); the input is never overwritten. manifest.json counts the redactions by file and pattern, never their values.",
  examples: [
    '<%= config.bin %> redact examples/bundles/healthy.tgz --out healthy-redacted.tgz',
    '<%= config.bin %> redact examples/bundles/image-pull.tgz --out ./image-pull-redacted',
  ],
  args: { bundle: { description: 'bundle to redact (FILE.tgz or directory written by collect)', required: true } },
  flags: {
    ...GLOBAL_FLAGS,
    out: { type: 'string', description: 'FILE.tgz or a new directory (never the input)', required: true },
  },
})

export async function runRedact(input: InputOf<typeof REDACT_COMMAND>, _session: Session): Promise<ExitCode> {
  if (samePath(input.bundle, input.out))
    throw usageError(`--out ${input.out} is the bundle being redacted`, 'give --out a new name; the input is kept as it is')
  const snapshot = await readBundle(input.bundle)
  const before = snapshot.redactions
  const redacted = redactSnapshot(snapshot)
  await writeBundle(input.out, redacted, true)
  const now = redacted.redactions - before
  const files = Object.keys(redacted.redactionsByFile ?? {}).length
  writeStderr(
    `wrote ${input.out}: ${now} value(s) redacted by this run (${redacted.redactions} in all, in ${files} file(s); counted in manifest.json redactionsByFile)\n`,
  )
  return ExitCode.Clean
}

/** Whether two paths name one file or folder (through links too), as far as what exists can tell. */
function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p)
    } catch {
      return path.resolve(p)
    }
  }
  return real(a) === real(b)
}
