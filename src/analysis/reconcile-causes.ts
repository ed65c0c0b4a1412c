/**
 * What a reconcile error the operator logged means, for the causes the tool knows. The texts are the
 * API server's and the operator's own (cosmopilot wraps them: "failed to create init pod: <api error>").
 */
export type ReconcileCause =
  | 'priority-class'
  | 'quota'
  | 'pod-security'
  | 'admission-denied'
  | 'rbac'
  | 'secret-missing'
  | 'configmap-missing'
  | 'snapshot-missing'
  | 'genesis'
  | 'crd-missing'
  | 'webhook'
  | 'invalid-spec'
  | 'start-timeout'
  | 'unknown'

export interface CauseMatch {
  cause: ReconcileCause
  /** The object the error names (PriorityClass, quota, Secret, kind), when it names one. */
  object?: string
  /** For a quota: the resources the refused object asked for beyond it (`requests.storage`, `services.loadbalancers`). */
  resources?: string[]
}

const PATTERNS: [ReconcileCause, RegExp][] = [
  ['priority-class', /no PriorityClass with name (\S+) was found/],
  ['quota', /exceeded quota: ([\w.-]+)/],
  ['pod-security', /violates PodSecurity "([^"]+)"/],
  ['admission-denied', /admission webhook "([^"]+)" denied the request/],
  // x509 alone is any TLS call the operator makes (a genesis URL, Vault, a node's RPC): only a webhook's counts.
  ['webhook', /failed calling webhook "([^"]+)"|webhook.*x509: /],
  ['rbac', /is forbidden: User "([^"]+)" cannot/],
  ['secret-missing', /secrets? "([^"]+)" not found/],
  ['configmap-missing', /configmaps? "([^"]+)" not found/],
  ['snapshot-missing', /volumesnapshots(?:\.snapshot\.storage\.k8s\.io)? "([^"]+)" not found/],
  ['genesis', /(?:retrieve|download|load|initialize) (?:new )?genesis|genesis could not be retri/i],
  ['crd-missing', /no matches for kind "([^"]+)"|could not find the requested resource|no kind is registered for the type/],
  ['invalid-spec', /spec is invalid|is invalid: |Invalid value: |Required value|Unsupported value: /],
  // pod.go waits 5 minutes for the main container to start; a first start that takes longer is only logged.
  ['start-timeout', /timeout waiting for (?:recreated )?container (\S+) to start/],
]

export function classifyReconcileError(error: string): CauseMatch {
  for (const [cause, pattern] of PATTERNS) {
    const match = pattern.exec(error)
    if (!match) continue
    if (cause === 'quota') return { cause, object: match[1], resources: quotaResources(error) }
    return { cause, object: match[1] }
  }
  return { cause: 'unknown' }
}

/** `exceeded quota: q, requested: requests.storage=100Gi,count/services=1, used: …`: the resources asked for. */
function quotaResources(error: string): string[] {
  const requested = /requested: (.*?)(?:, used:|$)/.exec(error)?.[1] ?? ''
  return requested
    .split(',')
    .map((pair) => pair.split('=')[0].trim())
    .filter(Boolean)
}

/** What the node can lower to fit a quota, by the resource the quota refused. */
function quotaRemedy(resources: string[] | undefined, node: string): string {
  const has = (test: RegExp) => (resources ?? []).some((resource) => test.test(resource))
  if (has(/storage|persistentvolumeclaims/)) return `lower the size of the volume it creates (.spec.persistence.size or additionalVolumes of ${node})`
  if (has(/services|nodeports|loadbalancers/)) return `expose fewer Services (.spec.expose of ${node})`
  if (has(/cpu|memory|^pods$|count\/pods/)) return "lower the node's resource requests (.spec.resources)"
  return 'lower what the refused object asks for (the error names the resource)'
}

/** What to do about each cause; {object} is the object the error names, {namespace} the node's. */
export function causeAction(match: CauseMatch, ctx: { namespace: string; operator: string; node: string; genesisSource?: boolean }): string {
  const object = match.object ?? ''
  switch (match.cause) {
    case 'priority-class':
      return `Create PriorityClass ${object}, or set RELEASE_NAME on the operator's manager to the Helm release name (the chart creates <release>-nodes).`
    case 'quota':
      return `Raise ResourceQuota ${object} in ${ctx.namespace} (kubectl describe resourcequota ${object} -n ${ctx.namespace}), or ${quotaRemedy(match.resources, ctx.node)}.`
    case 'pod-security':
      return `Label namespace ${ctx.namespace} for the Pod Security level the node needs, or change the node's security context to meet "${object}".`
    case 'admission-denied':
      return `Read the policy behind admission webhook ${object} and allow the operator's Pods (or change the node to comply).`
    case 'webhook':
      return 'Check the webhook the API server calls (its Service, endpoints and certificate); see the webhook-certificates rule.'
    case 'rbac':
      return `Grant ${object} the permission the operator needs (the chart's ClusterRole), then let the operator retry.`
    case 'secret-missing':
      return `Create Secret ${object} in ${ctx.namespace} (or fix the name the ChainNode refers to).`
    case 'configmap-missing':
      return `Create ConfigMap ${object} in ${ctx.namespace} (or fix the name the ChainNode refers to).`
    case 'snapshot-missing':
      return `Create VolumeSnapshot ${object} in ${ctx.namespace}, or point .spec.persistence.restoreFromSnapshot at one that exists.`
    case 'genesis':
      return ctx.genesisSource === false
        ? `The node has no .spec.genesis: it creates a new genesis (.spec.validator.init). Read the genesis Pod: kubectl logs -n ${ctx.namespace} ${ctx.node}-genesis-init --all-containers`
        : "Check the genesis source in .spec.genesis (URL reachable from the cluster, checksum, ConfigMap) and the operator's egress."
    case 'crd-missing':
      return `Install the CRD for ${object || 'the missing kind'} (e.g. the CSI snapshotter for VolumeSnapshot) or turn off the feature that needs it.`
    case 'invalid-spec':
      return `Fix the spec of ${ctx.node} as the error says (kubectl edit chainnode ${ctx.node} -n ${ctx.namespace}).`
    case 'start-timeout':
      return `Read why ${object || 'the main container'} does not start: kubectl chainnode logs ${ctx.node} -n ${ctx.namespace} -c all, and kubectl describe pod ${ctx.node} -n ${ctx.namespace}.`
    case 'unknown':
      return `Read the operator log for this node: kubectl logs -n ${ctx.operator.split('/')[0]} deploy/${ctx.operator.split('/')[1]} -c manager | grep ${ctx.node}`
  }
}
