/**
 * Commands the quick start (quick.ts) serves without oclif. Its own module so that the entry
 * points can ask without loading the quick start itself.
 */
export const QUICK_COMMANDS = ['doctor', 'timeline', 'status', 'events', 'describe', 'logs', 'signer', 'collect', 'rules', 'config-hash'] as const

export type QuickCommandId = (typeof QUICK_COMMANDS)[number]
