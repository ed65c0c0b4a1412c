import { dump } from 'js-yaml'

/** -o json and -o yaml print the same document. */
export function structured(format: 'json' | 'yaml', document: object): string {
  return format === 'yaml' ? dump(document, { noRefs: true, lineWidth: -1 }) : JSON.stringify(document, null, 2)
}
