import { containerEnv } from './node-layout.js'
import type { Workload } from './kinds.js'

/** The operator's API group and annotation domain, and what its manager Deployment says about a release. */
export const CHAINNODE_API = 'cosmopilot.voluzi.com/v1'
export const ANNOTATION_DOMAIN = 'cosmopilot.voluzi.com'
export const annotation = (key: string) => `${ANNOTATION_DOMAIN}/${key}`

interface ManagerContainer {
  name: string
  command?: string[]
  args?: string[]
  env?: { name: string; value?: string }[]
}

function managerContainer(deployment: Workload): ManagerContainer | undefined {
  const containers: ManagerContainer[] = deployment.spec?.template?.spec?.containers ?? []
  return containers.find((c) => c.name === 'manager') ?? containers[0]
}

/**
 * A manager flag as Go's flag package reads it: `--flag=value`, `-flag value`, or a bare boolean
 * `--flag`. The binary takes each flag's default from an environment variable (cmd/manager/config.go),
 * so a flag given on the command line wins over the variable.
 */
function managerFlag(deployment: Workload, flag: string, boolean = false): string | undefined {
  const manager = managerContainer(deployment)
  const argv = [...(manager?.command ?? []).slice(1), ...(manager?.args ?? [])]
  let value: string | undefined
  argv.forEach((arg, i) => {
    const match = /^--?([\w-]+)(?:=(.*))?$/.exec(arg)
    if (match?.[1] === flag) value = match[2] ?? (boolean ? 'true' : argv[i + 1])
  })
  return value
}

function managerEnv(deployment: Workload, name: string): string | undefined {
  return containerEnv(managerContainer(deployment), name)
}

/** Go's strconv.ParseBool, as the flag package reads a boolean flag. */
function goBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false
  return undefined
}

/** Leader election is off unless switched on: the chart sets ENABLE_LEADER_ELECTION=true, the binary defaults to false. */
export function runsLeaderElection(deployment: Workload): boolean {
  const flag = managerFlag(deployment, 'enable-leader-election', true)
  // The operator's env reader takes exactly "true" as true.
  return flag !== undefined ? goBool(flag) === true : managerEnv(deployment, 'ENABLE_LEADER_ELECTION') === 'true'
}

export function operatorWorkerName(deployment: Workload): string {
  return managerFlag(deployment, 'worker-name') ?? managerEnv(deployment, 'WORKER_NAME') ?? ''
}

/** RELEASE_NAME names the Lease and the PriorityClasses; the chart never sets it. */
export function operatorReleaseName(deployment: Workload): string {
  return managerFlag(deployment, 'release-name') ?? managerEnv(deployment, 'RELEASE_NAME') ?? 'cosmopilot'
}

/** The leader-election Lease a release's managers take: <worker>.<release>.cosmopilot.voluzi.com (no worker: no prefix). */
export function operatorLeaseName(deployment: Workload): string {
  const worker = operatorWorkerName(deployment)
  const release = operatorReleaseName(deployment)
  return worker ? `${worker}.${release}.${ANNOTATION_DOMAIN}` : `${release}.${ANNOTATION_DOMAIN}`
}
