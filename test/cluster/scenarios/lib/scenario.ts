import type { ScenarioInfo } from '../types.js'
import type { LogLine } from './logfmt.js'
import type { Seeder } from './seeder.js'

export interface Scenario {
  info: ScenarioInfo
  /** Create the scenario's objects in `s.ns` (the namespace already exists). */
  seed(s: Seeder): Promise<void>
  /** Lines this scenario contributes to the shared operator's manager log. */
  operatorLogs?(now: Date): LogLine[]
  /** Runs after every chosen scenario is seeded (cluster-scoped objects such as webhook configurations). */
  finalize?(s: Seeder): Promise<void>
  /** Re-stamp time-sensitive fields (heights, logs) so the scenario keeps its state over time. */
  refresh?(s: Seeder): Promise<void>
}

export function defineScenario(s: Scenario): Scenario {
  return s
}
