/** Text to match literally inside a RegExp built from names (a node, a webhook). */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
