import { install as installInterruptHandler } from '../util/cleanup.js'
import type { Connection } from '../cluster/connection.js'
import { colorWanted, makePalette, plainPalette, type Palette } from '../render/palette.js'
import type { Snapshot } from '../snapshot/types.js'
import { allowColour, writeStderr, writeStdout, type OutputFormat } from '../util/output.js'
import { BundleSource } from './bundle-source.js'
import { LiveSource } from './live-source.js'
import type { KubeFlags, SnapshotFlags, SnapshotReads, SnapshotSource } from './snapshot-source.js'
import { narrowBySelector } from './snapshots.js'

/** The one flag that can put a key into a public ticket says so where a reader looks. */
export const UNREDACTED_WARNING = '--no-redact: keys, tokens, mnemonics and passwords are shown as they are; do not share this output'
export const UNREDACTED_MARK = '[UNREDACTED: --no-redact was given; secrets in this output are not masked]'

/**
 * What every command run shares, with no CLI framework behind it: colour, debug lines, output,
 * connections to clusters and snapshots. The oclif base commands and the quick start both use it.
 */
/**
 * What every command run shares, with no CLI framework behind it: colour, debug lines and output, and the
 * sources its snapshots come from (the live clusters, or a bundle). The oclif base commands and the quick start
 * both use it.
 */
export class Session {
  palette: Palette = plainPalette
  debugEnabled = false
  /** The clusters of the kubeconfig; serve, logs -f and the profile captures hold its connections. */
  readonly live: LiveSource
  private readonly bundle: BundleSource
  /** --no-redact was given: said once on stderr, and text output says so on its first line. */
  private unredacted: 'no' | 'unmarked' | 'marked' = 'no'

  /** root: where package.json and docs/ are (the package, or the single executable's directory). */
  constructor(
    readonly version: string,
    readonly root: string,
  ) {
    const debugLine = (text: string) => this.debugLine(text)
    this.live = new LiveSource(version, debugLine)
    this.bundle = new BundleSource(debugLine)
  }

  async setupOutput(flags: { 'no-color'?: boolean; debug?: boolean }): Promise<void> {
    // Ctrl-C at any stage must leave no partial file, listener or port-forward behind.
    installInterruptHandler()
    this.debugEnabled = Boolean(flags.debug) || Boolean(process.env.KUBECTL_CHAINNODE_DEBUG)
    this.palette = await makePalette(colorWanted(process.stdout, Boolean(flags['no-color'])))
    allowColour(this.palette.enabled)
  }

  debugLine(text: string): void {
    if (this.debugEnabled) writeStderr(`debug: ${text}\n`)
  }

  /** Write to stdout through the output guard (util/output.ts); JSON and XML stay exact and parseable. */
  print(text: string, format: OutputFormat = 'text'): void {
    const marked = format === 'text' && this.unredacted === 'unmarked' ? `${UNREDACTED_MARK}\n${text}` : text
    if (marked !== text) this.unredacted = 'marked'
    writeStdout(marked.endsWith('\n') ? marked : `${marked}\n`, format)
  }

  connect(flags: KubeFlags, contextName = flags.context): Promise<Connection> {
    return this.live.connect(flags, contextName)
  }

  /** One snapshot per context (--context a,b reads several clusters), or the bundle's, narrowed by -l. */
  async snapshots(flags: SnapshotFlags, reads: SnapshotReads = {}): Promise<Snapshot[]> {
    if (flags['no-redact'] && this.unredacted === 'no') {
      this.unredacted = 'unmarked'
      writeStderr(`warning: ${UNREDACTED_WARNING}\n`)
    }
    const source: SnapshotSource = flags.bundle ? this.bundle : this.live
    const read = await source.read(flags, reads)
    return flags.selector ? read.map((snapshot) => narrowBySelector(snapshot, flags.selector!)) : read
  }

  close(): void {
    this.live.close()
  }
}
