/** See type-aware-lint-key.mjs. */
export function typeAwareLintKey(buildInfoFile: string, toolVersions: object): string
