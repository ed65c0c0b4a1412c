/** What `--version` prints, as oclif's config.userAgent says it; the help's VERSION section says the same. */
export const userAgent = (version: string): string => `kubectl-chainnode/${version} ${process.platform}-${process.arch} node-${process.version}`
