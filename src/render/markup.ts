/**
 * Text from a stranger (an Event, a function name in a profile) placed in XML, SVG or HTML: the four markup
 * characters as entities (attributes are always double-quoted), and what XML 1.0 forbids (C0 controls but tab and line breaks, U+FFFE, U+FFFF, a
 * surrogate without its pair) dropped, since one such character makes a whole report or picture unreadable.
 */
export const escapeMarkup = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
