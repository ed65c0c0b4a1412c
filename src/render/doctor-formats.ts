import type { DoctorResult } from '../engine/doctor-result.js'
import type { FailOn } from '../engine/exit-code.js'
import type { Palette } from './palette.js'
import { doctorJson } from './doctor-json.js'
import { renderDoctorJunit } from './doctor-junit.js'
import { renderDoctorMarkdown } from './doctor-markdown.js'
import { renderDoctorText, type DoctorTextOptions } from './doctor-text.js'

/** What a doctor report is laid out for besides the result: the terminal, the user's choices, the version. */
export interface DoctorView extends DoctorTextOptions {
  palette: Palette
  failOn: FailOn
  version: string
}

export type DoctorFormat = 'text' | 'json' | 'markdown' | 'junit'

/** doctor's output formats, one renderer each: --output picks one, so a reader follows only the format asked for. */
export const DOCTOR_FORMATS: Record<DoctorFormat, (result: DoctorResult, view: DoctorView) => string> = {
  text: (result, view) => renderDoctorText(result, view.palette, view),
  json: (result, view) => JSON.stringify(doctorJson(result, view.version), null, 2),
  markdown: (result) => renderDoctorMarkdown(result),
  junit: (result, view) => renderDoctorJunit(result, view.failOn),
}
