/** How a text report is laid out: the terminal's width (undefined when piped: nothing is cut) and the zone of its times. */
export interface Look {
  width?: number
  /** Times in UTC (--utc); otherwise in the local zone, as kubectl shows them. */
  utc: boolean
}
