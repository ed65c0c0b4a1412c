import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './cli.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
export const DASHBOARD_PATH = path.join(ROOT, 'deploy', 'grafana', 'chainnode-fleet.json')

export const readDashboard = (): any => JSON.parse(readFileSync(DASHBOARD_PATH, 'utf8'))

/** The panels that query (rows only group them), rows' own nested panels included. */
export function queryPanels(dashboard: any): any[] {
  const all: any[] = (dashboard.panels ?? []).flatMap((p: any) => [p, ...(p.panels ?? [])])
  return all.filter((p) => p.type !== 'row')
}

/**
 * Every panel's PromQL as Grafana would send it with the variables at their widest: every namespace (`.*`, the
 * variable's "All"), and the range and rate windows of a short look-back.
 */
export function panelQueries(dashboard: any): { panel: string; refId: string; expr: string; instant: boolean }[] {
  return queryPanels(dashboard).flatMap((panel) =>
    (panel.targets ?? []).map((t: any) => ({
      panel: panel.title,
      refId: t.refId,
      instant: Boolean(t.instant),
      expr: String(t.expr).replaceAll('$namespace', '.*').replaceAll('$__rate_interval', '1m').replaceAll('$__range', '5m').replaceAll('$__interval', '15s'),
    })),
  )
}
