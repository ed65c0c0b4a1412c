import { readFileSync } from 'node:fs'
import path from 'node:path'
import { load, loadAll } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { parseListen, SERVE_COMMAND } from '../../src/commands/serve.js'
import { parseCommandLine } from '../../src/entry/parse-argv.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const ROOT = path.resolve(import.meta.dirname, '../..')
const docs = (file: string) => loadAll(readFileSync(path.join(ROOT, file), 'utf8')) as any[]
const find = (list: any[], kind: string, name?: string) => list.find((m) => m.kind === kind && (!name || m.metadata.name === name))

const serveRbac = docs('deploy/serve/rbac.yaml')
const serveApp = docs('deploy/serve/deployment.yaml')
const cliRbac = docs('deploy/rbac.yaml')
const deployment = find(serveApp, 'Deployment')
const pod = deployment.spec.template.spec
const container = pod.containers[0]

describe('deploy/serve', () => {
  it("grants exactly doctor's reads (kubectl-chainnode-reader) and the port-forward of the probes, nothing more", () => {
    const role = find(serveRbac, 'ClusterRole', 'chainnode-serve')
    const expected = [...find(cliRbac, 'ClusterRole', 'kubectl-chainnode-reader').rules, ...find(cliRbac, 'ClusterRole', 'kubectl-chainnode-portforward').rules]
    expect(role.rules).toEqual(expected)
    const resources = role.rules.flatMap((r: any) => r.resources)
    expect(resources).not.toContain('secrets')
    for (const rule of role.rules) if (rule.verbs.includes('create')) expect(rule.resources).toEqual(['pods/portforward'])
    expect(role.rules.flatMap((r: any) => r.verbs).filter((v: string) => !['get', 'list', 'watch', 'create'].includes(v))).toEqual([])
    const binding = find(serveRbac, 'ClusterRoleBinding', 'chainnode-serve')
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'chainnode-serve', namespace: 'kubectl-chainnode' }])
    expect(pod.serviceAccountName).toBe('chainnode-serve')
  })

  it('runs one non-root replica on a read-only root filesystem, with probes on the routes serve answers and resource requests', () => {
    expect(deployment.spec.replicas).toBe(1)
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532 })
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } })
    expect(container.readinessProbe.httpGet.path).toBe('/readyz')
    expect(container.livenessProbe.httpGet.path).toBe('/healthz')
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) })
    // The state directory must be writable: it is on the emptyDir, not on the read-only root.
    const stateDir = container.env.find((e: any) => e.name === 'KUBECTL_CHAINNODE_STATE_DIR').value
    expect(container.volumeMounts.some((m: any) => stateDir.startsWith(m.mountPath))).toBe(true)
  })

  it('limits memory to the peak RSS the README measured at 5,000 nodes (bench/serve.ts) with at least a quarter to spare', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    const peakMb = Number(/5,000 nodes: [^\n]*?peak RSS (\d+) MB/.exec(readme)?.[1])
    expect(peakMb).toBeGreaterThan(0)
    const limit = /^(\d+)(Mi|Gi)$/.exec(container.resources.limits.memory)!
    const limitMb = (Number(limit[1]) * (limit[2] === 'Gi' ? 1024 : 1) * 1024 * 1024) / 1e6
    expect(limitMb).toBeGreaterThanOrEqual(peakMb * 1.25)
    expect(readme).toContain(`limit, ${container.resources.limits.memory},`)
  })

  it('passes serve a command line it accepts, listening on the port the probes, the Service and the scrape annotations name', () => {
    expect(container.args[0]).toBe('serve')
    const input = parseCommandLine(container.args.slice(1), SERVE_COMMAND)
    expect(input).toBeDefined()
    const port = parseListen(String(input!.listen)).port
    expect(container.ports).toEqual([{ name: 'metrics', containerPort: port }])
    expect(deployment.spec.template.metadata.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(port),
      'prometheus.io/path': '/metrics',
    })
    const service = find(serveApp, 'Service')
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels)
    expect(service.spec.ports[0]).toMatchObject({ port, targetPort: 'metrics' })
  })

  it('names the image the README tells users to push, as the CronJob does', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
    const image = `ghcr.io/voluzi/kubectl-chainnode:${pkg.version}`
    expect(container.image).toBe(image)
    expect(find(cliRbac, 'CronJob').spec.jobTemplate.spec.template.spec.containers[0].image).toBe(image)
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain(image.replace(pkg.version, ''))
  })

  it('holds in its PrometheusRule the same alert groups as deploy/prometheus/alerts.yaml', () => {
    const rule = load(readFileSync(path.join(ROOT, 'deploy', 'serve', 'prometheusrule.yaml'), 'utf8')) as any
    const alerts = load(readFileSync(path.join(ROOT, 'deploy', 'prometheus', 'alerts.yaml'), 'utf8')) as any
    expect(rule.kind).toBe('PrometheusRule')
    expect(rule.spec.groups).toEqual(alerts.groups)
  })
})
