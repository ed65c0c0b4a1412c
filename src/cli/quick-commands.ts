/**
 * Commands the quick start (quick.ts) serves without oclif. Its own module so that the entry
 * points can ask without loading the quick start itself.
 */
export const QUICK_COMMANDS: readonly string[] = ['doctor', 'timeline']
