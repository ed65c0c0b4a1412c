import { renderFlameHtml } from './flame-html.js'
import { renderFlameSvg } from './flame-svg.js'

/** `pprof flame -o NAME`: the page (search and zoom) or the still picture, by the name's extension. */
export const FLAME_FORMATS = { html: renderFlameHtml, svg: renderFlameSvg }
