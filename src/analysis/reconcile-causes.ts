/**
 * What a reconcile error (or an Event) the operator wrote means, for the causes the tool knows, with the
 * specific facts its words carry: the quota and its used and hard values, the LimitRange bound against the
 * request, the principal and the permission denied, the kind and name of a missing object, what a timeout
 * waited for, the HTTP status of a remote store. The texts are the API server's, the key backends' and the
 * operator's own (cosmopilot wraps them: "failed to create init pod: <api error>").
 */
export type ReconcileCause =
  | 'priority-class'
  | 'quota'
  | 'limit-range'
  | 'pod-security'
  | 'admission-denied'
  | 'rbac'
  | 'permission-denied'
  | 'secret-missing'
  | 'configmap-missing'
  | 'snapshot-missing'
  | 'object-missing'
  | 'genesis'
  | 'crd-missing'
  | 'webhook'
  | 'invalid-spec'
  | 'start-timeout'
  | 'pod-terminating'
  | 'remote-store'
  | 'timeout'
  | 'unreachable'
  | 'ownership'
  | 'key-reserved'
  | 'insufficient-funds'
  | 'pruned'
  | 'unknown'

/** One resource a ResourceQuota refused: what the new object asks, what is used, the hard limit. */
export interface QuotaResource {
  resource: string
  requested?: string
  used?: string
  hard?: string
}

export interface CauseMatch {
  cause: ReconcileCause
  /** The object the error names (PriorityClass, quota, Secret, kind, Pod, principal), when it names one. */
  object?: string
  /** For a quota: the resources the refused object asked for beyond it (`requests.storage`, `services.loadbalancers`). */
  resources?: string[]
  /** For a quota: each resource with its requested, used and hard values. */
  quota?: QuotaResource[]
  /** The specific facts, by name (kind, permission, resource, principal, status, waitedFor, allowed, asked…). */
  facts?: Record<string, string>
  /** The specific cause in words, when the text says more than its family. */
  detail?: string
}

/** Kubernetes' plural resource names, as a kind. */
const KINDS: Record<string, string> = {
  secrets: 'Secret',
  secret: 'Secret',
  configmaps: 'ConfigMap',
  configmap: 'ConfigMap',
  serviceaccounts: 'ServiceAccount',
  serviceaccount: 'ServiceAccount',
  pods: 'Pod',
  pod: 'Pod',
  persistentvolumeclaims: 'PersistentVolumeClaim',
  services: 'Service',
  chainnodes: 'ChainNode',
  chainnodesets: 'ChainNodeSet',
  jobs: 'Job',
  statefulsets: 'StatefulSet',
  volumesnapshots: 'VolumeSnapshot',
  priorityclasses: 'PriorityClass',
  storageclasses: 'StorageClass',
  gateways: 'Gateway',
  nodes: 'Node',
  consensuskeyreservations: 'ConsensusKeyReservation',
}

/** S3 error codes and the HTTP status they come with. */
const S3_CODES: Record<string, string> = {
  AccessDenied: '403',
  InvalidAccessKeyId: '403',
  SignatureDoesNotMatch: '403',
  AllAccessDisabled: '403',
  NoSuchBucket: '404',
  NoSuchKey: '404',
  ExpiredToken: '400',
  SlowDown: '503',
}

/** How long the operator waits before it calls a wait a timeout (internal/controllers/chainnode/constant.go). */
const OPERATOR_WAITS: [RegExp, string][] = [
  [/^(?:recreated )?container \S+ to start in pod/, '5m'],
  [/^pod \S+ to be deleted/, '2m'],
]

type Matcher = (text: string) => CauseMatch | undefined | null

const kindOf = (resource: string) => KINDS[resource.toLowerCase().split('.')[0]] ?? resource

const MATCHERS: Matcher[] = [
  (text) => {
    const m = /no PriorityClass with name (\S+) was found/.exec(text)
    return m && { cause: 'priority-class', object: m[1], detail: `PriorityClass ${m[1]} does not exist`, facts: { kind: 'PriorityClass', name: m[1] } }
  },
  (text) => {
    const m = /exceeded quota: ([\w.-]+)/.exec(text)
    if (!m) return undefined
    const quota = quotaOf(text)
    const full = quota.filter((q) => q.used !== undefined && q.hard !== undefined)
    const shown = (full.length ? full : quota)
      .map(
        (q) =>
          `${q.resource}${q.used !== undefined ? ` used ${q.used} of ${q.hard ?? '?'}` : ''}${q.requested !== undefined ? `, asks ${q.requested} more` : ''}`,
      )
      .join('; ')
    return {
      cause: 'quota',
      object: m[1],
      resources: quota.map((q) => q.resource),
      quota,
      facts: { kind: 'ResourceQuota', name: m[1] },
      detail: `ResourceQuota ${m[1]} is full${shown ? `: ${shown}` : ''}`,
    }
  },
  (text) => {
    // LimitRanger: "maximum memory usage per Container is 1Gi, but limit is 2Gi" (several are joined in [ ]).
    const m = /(maximum|minimum) ([\w.-]+) usage per (Container|Pod|PersistentVolumeClaim) is (\S+?),? but (limit|request) is (\S+?)(?:[,\]]|\.?$|\s)/.exec(
      text,
    )
    const ratio = /([\w.-]+) max limit to request ratio per (Container|Pod) is (\S+?),? but provided ratio is (\S+?)(?:[,\]]|\.?$|\s)/.exec(text)
    if (m) {
      const [, bound, resource, scope, allowed, field, asked] = m
      const pod = /(?:pods|persistentvolumeclaims) "([^"]+)" is forbidden/.exec(text)?.[1]
      return {
        cause: 'limit-range',
        object: pod,
        facts: { bound, resource, scope, allowed, field, asked, ...(pod ? { pod } : {}) },
        detail: `a LimitRange allows ${bound === 'maximum' ? 'at most' : 'at least'} ${allowed} ${resource} per ${scope}, and ${pod ? `Pod ${pod}` : 'the object'} asks ${asked} (its ${field})`,
      }
    }
    if (ratio) {
      const [, resource, scope, allowed, asked] = ratio
      return {
        cause: 'limit-range',
        facts: { bound: 'ratio', resource, scope, allowed, field: 'limit/request', asked },
        detail: `a LimitRange allows a ${resource} limit at most ${allowed}× the request per ${scope}, and the Pod asks ${asked}×`,
      }
    }
    return undefined
  },
  (text) => {
    const m = /violates PodSecurity "([^"]+)"(?:: (.*))?/.exec(text)
    return m && { cause: 'pod-security', object: m[1], detail: `the Pod violates PodSecurity "${m[1]}"${m[2] ? `: ${m[2]}` : ''}` }
  },
  (text) => {
    const m = /admission webhook "([^"]+)" denied the request(?:: (.*))?/.exec(text)
    return m && { cause: 'admission-denied', object: m[1], detail: `admission webhook ${m[1]} denies it${m[2] ? `: ${m[2]}` : ''}` }
  },
  // x509 alone is any TLS call the operator makes (a genesis URL, Vault, a node's RPC): only a webhook's counts.
  (text) => {
    const m = /failed calling webhook "([^"]+)"|webhook.*x509: /.exec(text)
    return m && { cause: 'webhook', object: m[1] }
  },
  (text) => {
    const m = /is forbidden: User "([^"]+)" cannot (\S+) resource "([^"]+)"(?: in API group "([^"]*)")?(?: in the namespace "([^"]+)")?/.exec(text)
    if (!m) return undefined
    const [, principal, verb, resource, group, namespace] = m
    return {
      cause: 'rbac',
      object: principal,
      facts: { principal, verb, resource, ...(group ? { group } : {}), ...(namespace ? { namespace } : {}) },
      detail: `${principal} may not ${verb} ${resource}${group ? `.${group}` : ''}${namespace ? ` in namespace ${namespace}` : ' cluster-wide'}`,
    }
  },
  permissionDenied,
  (text) => {
    const m = /volumesnapshots(?:\.snapshot\.storage\.k8s\.io)? "([^"]+)" not found/.exec(text)
    return m && { cause: 'snapshot-missing', object: m[1], facts: { kind: 'VolumeSnapshot', name: m[1] }, detail: `VolumeSnapshot ${m[1]} does not exist` }
  },
  (text) => {
    // The API server's `secrets "x" not found`, and the operator's own `… secret "x" not found` / `Secret "x" is unavailable`.
    const m =
      /\b(secrets?|configmaps?|serviceaccounts?|chainnodes?(?:\.[\w.]+)?|pods|persistentvolumeclaims|jobs(?:\.batch)?|services|gateways(?:\.[\w.]+)?|statefulsets(?:\.apps)?) "([^"]+)" (?:not found|is unavailable)/i.exec(
        text,
      )
    if (!m) return undefined
    const kind = kindOf(m[1])
    const cause: ReconcileCause = kind === 'Secret' ? 'secret-missing' : kind === 'ConfigMap' ? 'configmap-missing' : 'object-missing'
    const key = /missing required key "([^"]+)"|does not contain key "([^"]+)"/.exec(text)
    return { cause, object: m[2], facts: { kind, name: m[2], ...(key ? { key: key[1] ?? key[2] } : {}) }, detail: `${kind} ${m[2]} does not exist` }
  },
  (text) => {
    // A Secret that exists without the key the operator reads.
    const m = /secret "([^"]+)" (?:is missing required key "([^"]+)"|does not contain key "([^"]+)"|is missing ([\w.]+)|has no ([\w.]+))/i.exec(text)
    if (!m) return undefined
    const key = m[2] ?? m[3] ?? m[4] ?? m[5]
    return { cause: 'secret-missing', object: m[1], facts: { kind: 'Secret', name: m[1], key }, detail: `Secret ${m[1]} has no key ${key}` }
  },
  (text) => {
    const m = /(?:retrieve|download|load|initialize) (?:new )?genesis|genesis could not be retri/i.exec(text)
    if (!m) return undefined
    // What the source answered: its HTTP status, a host that does not resolve, a refused connection.
    const inner = remoteStore(text) ?? unreachable(text)
    return inner ? { cause: 'genesis', facts: inner.facts, detail: inner.detail.replace(/^the remote store/, 'the genesis source') } : { cause: 'genesis' }
  },
  (text) => {
    const m = /no matches for kind "([^"]+)"|could not find the requested resource|no kind is registered for the type/.exec(text)
    return m && { cause: 'crd-missing', object: m[1] }
  },
  (text) => {
    if (!/spec is invalid|is invalid: |Invalid value: |Required value|Unsupported value: /.test(text)) return undefined
    // The validation error is the specific cause: what follows "spec is invalid: " or "is invalid: ".
    const what = /(?:spec is invalid|is invalid): (.+)/.exec(text)?.[1]
    return what ? { cause: 'invalid-spec', detail: `the spec is refused: ${what}`, facts: { error: what } } : { cause: 'invalid-spec' }
  },
  (text) => {
    const m =
      /(?:ChainNode|ChainNodeSet) (\w+) "([^"]+)" is managed by another owner|refusing to adopt unrecorded ChainNode (\S+)|pod (\S+) is not (?:controlled|owned) by ChainNode|(\w+) "([^"]+)" (?:exists but )?is not owned by this ChainNode(?:Set)?/.exec(
        text,
      )
    if (!m) return undefined
    const kind = m[1] ?? (m[3] ? 'ChainNode' : m[4] ? 'Pod' : m[5])
    const name = m[2] ?? m[3] ?? m[4] ?? m[6]
    return {
      cause: 'ownership',
      object: name,
      facts: { kind, name },
      detail: `${kind} ${name} is not the operator's own for this object (another owner, or none recorded)`,
    }
  },
  (text) => {
    const m = /already (?:reserved|recorded) by (ChainNode(?:Set)?) (\S+?)(?: \(UID ([^)]+)\))?(?:[,;]|$)/.exec(text)
    if (!m) return undefined
    return {
      cause: 'key-reserved',
      object: m[2],
      facts: { holderKind: m[1], holder: m[2], ...(m[3] ? { holderUID: m[3] } : {}) },
      detail: `the consensus key is held by ${m[1]} ${m[2]}`,
    }
  },
  (text) => {
    // CometBFT's answer for a block below what the node keeps.
    const m = /height (\d+) is not available, lowest height is (\d+)/.exec(text)
    return m && { cause: 'pruned', facts: { height: m[1], lowest: m[2] }, detail: `the node keeps blocks from height ${m[2]} only: block ${m[1]} is pruned` }
  },
  (text) => {
    const m = /insufficient funds: (\S+) is smaller than (\S+)/.exec(text)
    return m && { cause: 'insufficient-funds', facts: { has: m[1], needs: m[2] }, detail: `the account has ${m[1]} and the transaction needs ${m[2]}` }
  },
  // pod.go waits 5 minutes for the main container to start; a first start that takes longer is only logged.
  (text) => {
    const m = /timeout waiting for (?:recreated )?container (\S+) to start in pod (\S+?):?(?:\s|$)/.exec(text)
    return (
      m && {
        cause: 'start-timeout',
        object: m[1],
        facts: { container: m[1], pod: m[2], waitedFor: `container ${m[1]} to start in pod ${m[2]}`, limit: '5m' },
        detail: `container ${m[1]} did not start in Pod ${m[2]} within the operator's 5m`,
      }
    )
  },
  (text) => {
    const m = /timeout waiting for pod (\S+) to be deleted|failed waiting for pod (\S+) termination/.exec(text)
    if (!m) return undefined
    const pod = m[1] ?? m[2]
    return {
      cause: 'pod-terminating',
      object: pod,
      facts: { pod, waitedFor: `pod ${pod} to be deleted`, limit: '2m' },
      detail: `the old Pod ${pod} did not finish terminating within the operator's 2m`,
    }
  },
  remoteStore,
  (text) => {
    const m = /timeout waiting for ([^:]+?)(?: for service (\S+?))?(?::|$)|timed out waiting for ([^:]+?)(?::|$)|(context deadline exceeded)/.exec(text)
    if (!m) return undefined
    const what = m[1] ? `${m[1]}${m[2] ? ` for service ${m[2]}` : ''}` : (m[3] ?? 'an answer (context deadline exceeded)')
    const limit = OPERATOR_WAITS.find(([pattern]) => pattern.test(what))?.[1]
    return {
      cause: 'timeout',
      facts: { waitedFor: what, ...(limit ? { limit } : {}) },
      detail: `the operator timed out waiting for ${what}${limit ? ` (${limit})` : ''}`,
    }
  },
  unreachable,
]

function unreachable(text: string): (CauseMatch & { detail: string }) | undefined {
  const m = /dial tcp (\S+?):? (?:connect: )?(connection refused|i\/o timeout|no route to host)|lookup (\S+)(?: on \S+)?: no such host/.exec(text)
  if (!m) return undefined
  const address = m[1] ?? m[3]
  const why = m[2] ?? 'does not resolve (no such host)'
  return { cause: 'unreachable', object: address, facts: { address, reason: why }, detail: `${address} ${m[2] ? `answers ${why}` : why}` }
}

/** Vault's "permission denied" and GCP's "Permission '…' denied on resource '…'", with the principal when named. */
function permissionDenied(text: string): CauseMatch | undefined {
  const gcp = /Permission ['"]([\w.]+)['"] denied on (?:resource )?['"]?([^'"\s]+)['"]?/i.exec(text)
  if (gcp) {
    const principal = /(?:serviceAccount:|principal:? |for )['"]?([\w.-]+@[\w.-]+)/.exec(text)?.[1]
    return {
      cause: 'permission-denied',
      object: gcp[1],
      facts: { backend: 'GCP KMS', permission: gcp[1], resource: gcp[2], ...(principal ? { principal } : {}), status: '403' },
      detail: `GCP denies permission ${gcp[1]} on ${gcp[2]}${principal ? ` to ${principal}` : " to the operator's service account"}`,
    }
  }
  if (!/permission denied|PermissionDenied|code = PermissionDenied/i.test(text) || /is forbidden: User/.test(text)) return undefined
  const vault = /Vault|transit|\/v1\/|Code: 403/i.test(text)
  const url = /URL: (GET|PUT|POST|DELETE|LIST) (\S+)/.exec(text)
  const path = url ? url[2].replace(/^https?:\/\/[^/]+/, '') : undefined
  const status = /Code: (\d{3})/.exec(text)?.[1] ?? (vault ? '403' : undefined)
  const backend = vault ? 'Vault' : /GCP|KMS|cloudkms/i.test(text) ? 'GCP KMS' : 'the key backend'
  return {
    cause: 'permission-denied',
    object: path,
    facts: { backend, ...(status ? { status } : {}), ...(url ? { method: url[1], path: path! } : {}) },
    detail: `${backend} answers ${status ? `${status} ` : ''}permission denied${url ? ` to ${url[1]} ${path}` : ''}: the token or identity the operator uses lacks the policy`,
  }
}

/** A remote store's HTTP refusal: a status code, or an S3 error code that stands for one. */
function remoteStore(text: string): (CauseMatch & { detail: string }) | undefined {
  const s3 = /\b(AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|AllAccessDisabled|NoSuchBucket|NoSuchKey|ExpiredToken|SlowDown)\b/.exec(text)
  const status =
    /(?:status(?: code)?[:=]? |StatusCode: |Code: |HTTP\/[\d.]+ |AccessDeniedException: |response error |\bgot )(\d{3})\b/.exec(text)?.[1] ??
    /\b(\d{3}) (?:Forbidden|Not Found|Unauthorized|Too Many Requests|Internal Server Error|Service Unavailable|Bad Gateway)\b/.exec(text)?.[1] ??
    (s3 ? S3_CODES[s3[1]] : undefined)
  const described = /\b(s3|gcs|\w+) bucket "([^"]+)" object "([^"]+)"/.exec(text)
  if (!status && described) {
    // The operator names the export (snapshot_exports.go describeSnapshotExport) but not the store's answer.
    const [, provider, bucket, object] = described
    return {
      cause: 'remote-store',
      object: bucket,
      facts: { provider, bucket, object },
      detail: `deleting object ${object} from ${provider} bucket ${bucket} fails (the store's answer is in the delete Job's log)`,
    }
  }
  if (!status) return undefined
  const bucket = /bucket "([^"]+)"|s3:\/\/([^/\s)]+)|gs:\/\/([^/\s)]+)/.exec(text)
  const name = bucket ? (bucket[1] ?? bucket[2] ?? bucket[3]) : undefined
  return {
    cause: 'remote-store',
    object: name,
    facts: { status, ...(s3 ? { code: s3[1] } : {}), ...(name ? { bucket: name } : {}) },
    detail: `${name ? `bucket ${name}` : 'the remote store'} answers HTTP ${status}${s3 ? ` (${s3[1]})` : ''}${status === '403' ? ': the credentials lack the permission' : ''}`,
  }
}

/** `exceeded quota: q, requested: requests.storage=100Gi,count/services=1, used: …, limited: …`: each resource with its values. */
function quotaOf(error: string): QuotaResource[] {
  const part = (name: string) => {
    const values = new Map<string, string>()
    const text = new RegExp(`${name}: (.*?)(?:, (?:requested|used|limited):|$)`).exec(error)?.[1] ?? ''
    for (const pair of text.split(',')) {
      const [key, value] = pair.split('=').map((s) => s.trim())
      if (key && value !== undefined) values.set(key, value)
    }
    return values
  }
  const requested = part('requested')
  const used = part('used')
  const limited = part('limited')
  return [...requested.keys()].map((resource) => ({
    resource,
    requested: requested.get(resource),
    ...(used.has(resource) ? { used: used.get(resource) } : {}),
    ...(limited.has(resource) ? { hard: limited.get(resource) } : {}),
  }))
}

export function classifyReconcileError(error: string): CauseMatch {
  for (const matcher of MATCHERS) {
    const match = matcher(error)
    if (match) return Object.fromEntries(Object.entries(match).filter(([, v]) => v !== undefined)) as unknown as CauseMatch
  }
  return { cause: 'unknown' }
}

/** Causes that refuse the same request every time: retrying cannot help, only a change can. */
export const REFUSALS: ReadonlySet<ReconcileCause> = new Set([
  'priority-class',
  'quota',
  'limit-range',
  'pod-security',
  'admission-denied',
  'rbac',
  'permission-denied',
  'secret-missing',
  'configmap-missing',
  'snapshot-missing',
  'object-missing',
  'crd-missing',
  'invalid-spec',
  'ownership',
  'key-reserved',
])

/** What the node can lower to fit a quota, by the resource the quota refused. */
function quotaRemedy(resources: string[] | undefined, node: string, namespace: string): string {
  const has = (test: RegExp) => (resources ?? []).some((resource) => test.test(resource))
  if (has(/jobs/)) return `delete the finished Jobs that count against it (kubectl get jobs -n ${namespace})`
  if (has(/storage|persistentvolumeclaims/)) return `lower the size of the volume it creates (.spec.persistence.size or additionalVolumes of ${node})`
  if (has(/services|nodeports|loadbalancers/)) return `expose fewer Services (.spec.expose of ${node})`
  if (has(/cpu|memory|^pods$|count\/pods/)) return "lower the node's resource requests (.spec.resources)"
  return 'lower what the refused object asks for (the error names the resource)'
}

/** What to do about each cause; {object} is the object the error names, {namespace} the node's. */
export function causeAction(match: CauseMatch, ctx: { namespace: string; operator: string; node: string; genesisSource?: boolean }): string {
  const object = match.object ?? ''
  const facts = match.facts ?? {}
  const ns = ctx.namespace
  switch (match.cause) {
    case 'priority-class':
      return `Create PriorityClass ${object}, or set RELEASE_NAME on the operator's manager to the Helm release name (the chart creates <release>-nodes).`
    case 'quota':
      return `Raise ResourceQuota ${object} in ${ns} (kubectl describe resourcequota ${object} -n ${ns}), or ${quotaRemedy(match.resources, ctx.node, ns)}.`
    case 'limit-range': {
      // The data init Pod (<node>-init-data) sets resources only on the node's additional init commands (v3.0.0
      // chainutils/data.go); its other containers take the LimitRange's defaults, so .spec.resources cannot help.
      const initPod = facts.pod === `${ctx.node}-init-data`
      const whose = initPod ? `the additional init commands of ${ctx.node}` : ctx.node
      const field = initPod ? '.spec.persistence.additionalInitCommands[].resources, the only resources its data init Pod asks for' : '.spec.resources'
      return facts.bound === 'ratio'
        ? `Bring the ${facts.resource} limit of ${whose} within ${facts.allowed}× its request (kubectl edit chainnode ${ctx.node} -n ${ns}: ${field}), or change the LimitRange (kubectl describe limitrange -n ${ns}).`
        : `Set the ${facts.resource} ${facts.field} of ${whose} ${facts.bound === 'maximum' ? 'at or below' : 'at or above'} ${facts.allowed} (kubectl edit chainnode ${ctx.node} -n ${ns}: ${field}), or change the LimitRange's ${facts.bound} (kubectl describe limitrange -n ${ns}).`
    }
    case 'pod-security':
      return `Label namespace ${ns} for the Pod Security level the node needs, or change the node's security context to meet "${object}".`
    case 'admission-denied':
      return `Read the policy behind admission webhook ${object} and allow the operator's Pods (or change the node to comply).`
    case 'webhook':
      return 'Check the webhook the API server calls (its Service, endpoints and certificate); see the webhook-certificates rule.'
    case 'rbac':
      return `Grant ${object} ${facts.verb ?? 'the verb'} on ${facts.resource ?? 'the resource'}${facts.group ? ` (API group ${facts.group})` : ''} (the chart's ClusterRole: kubectl auth can-i ${facts.verb ?? '<verb>'} ${facts.resource ?? '<resource>'} --as=${object}${facts.namespace ? ` -n ${facts.namespace}` : ''}), then let the operator retry.`
    case 'permission-denied':
      return facts.backend === 'GCP KMS'
        ? `Grant the service account the operator's signer uses the permission ${facts.permission} on ${facts.resource}${facts.permission?.startsWith('cloudkms.importJobs') ? ' (role roles/cloudkms.importer)' : ''}: gcloud kms ... add-iam-policy-binding ${facts.resource?.split('/').slice(-1)[0] ?? '<resource>'} --member serviceAccount:<operator service account> --role <role with ${facts.permission}>.`
        : `Grant the Vault token the operator uses (its Secret in ${ns}) a policy allowing ${facts.method ? `${facts.method === 'PUT' || facts.method === 'POST' ? 'update/create' : facts.method.toLowerCase()} on ${facts.path}` : 'the transit key paths it reads and imports to'} (vault token capabilities <token> ${facts.path ?? '<path>'}).`
    case 'secret-missing':
      return facts.key && !/does not exist/.test(match.detail ?? '')
        ? `Add key ${facts.key} to Secret ${object} in ${ns}.`
        : `Create Secret ${object} in ${ns} (or fix the name the ChainNode refers to).`
    case 'configmap-missing':
      return `Create ConfigMap ${object} in ${ns} (or fix the name the ChainNode refers to).`
    case 'snapshot-missing':
      return `Create VolumeSnapshot ${object} in ${ns}, or point .spec.persistence.restoreFromSnapshot at one that exists.`
    case 'object-missing':
      return `Create ${facts.kind ?? 'the object'} ${object} in ${ns} (kubectl get ${(facts.kind ?? 'all').toLowerCase()} ${object} -n ${ns}), or fix the name that refers to it.`
    case 'genesis':
      return ctx.genesisSource === false
        ? `The node has no .spec.genesis: it creates a new genesis (.spec.validator.init). Read the genesis Pod: kubectl logs -n ${ns} ${ctx.node}-genesis-init --all-containers`
        : "Check the genesis source in .spec.genesis (URL reachable from the cluster, checksum, ConfigMap) and the operator's egress."
    case 'crd-missing':
      return `Install the CRD for ${object || 'the missing kind'} (e.g. the CSI snapshotter for VolumeSnapshot) or turn off the feature that needs it.`
    case 'invalid-spec':
      return `Fix the spec of ${ctx.node} as the error says (kubectl edit chainnode ${ctx.node} -n ${ns}).`
    case 'start-timeout':
      return `Read why ${object || 'the main container'} does not start: kubectl chainnode logs ${ctx.node} -n ${ns} -c all, and kubectl describe pod ${facts.pod ?? ctx.node} -n ${ns}.`
    case 'pod-terminating':
      return `Find what holds Pod ${object} (kubectl get pod ${object} -n ${ns} -o jsonpath='{.metadata.finalizers} {.spec.nodeName}'; a finalizer, or a node that is gone); once it is gone the operator creates the new Pod. Only if its node is gone for good: kubectl delete pod ${object} -n ${ns} --grace-period=0 --force.`
    case 'remote-store':
      if (!facts.status)
        return `Read the store's answer in the delete Job's log (kubectl get jobs -n ${ns} | grep ${facts.object ?? 'delete'}; kubectl logs -n ${ns} job/<that job>), then fix the export's credentials for ${facts.provider} bucket ${facts.bucket}.`
      return `The ${facts.bucket ? `bucket ${facts.bucket}` : 'remote store'} refuses with HTTP ${facts.status}: ${facts.status === '403' || facts.status === '401' ? 'grant the credentials of the export (its Secret or ServiceAccount in ' + ns + ') the permission (delete/write on the bucket)' : facts.status === '404' ? 'check the bucket and object names in .spec.persistence.snapshots.exportTarball' : 'retry later, or check the store'}.`
    case 'timeout':
      return `Find why ${facts.waitedFor ?? 'what the operator waits for'} does not happen: kubectl describe ${/service/.test(facts.waitedFor ?? '') ? 'svc' : 'pod'} -n ${ns} | grep -A5 Events.`
    case 'unreachable':
      return `Check that ${object} is reachable from the operator's Pod (DNS, Service endpoints, NetworkPolicy).`
    case 'ownership':
      return `Find who owns ${facts.kind ?? 'the object'} ${object} (kubectl get ${(facts.kind ?? 'all').toLowerCase()} ${object} -n ${ns} -o jsonpath='{.metadata.ownerReferences}'); delete it or rename one of the two, once nothing else needs it.`
    case 'key-reserved':
      return `The key belongs to ${facts.holderKind} ${facts.holder}: stop one of the two (never run both signers), then remove its reservation: kubectl get consensuskeyreservations -o wide | grep ${facts.holder?.split('/').at(-1) ?? ''}`
    case 'pruned':
      return `Keep more blocks on ${ctx.node} (min-retain-blocks or pruning keep-recent in app.toml, .spec.config.override) so that height ${facts.height} stays; or wait for a snapshot above ${facts.lowest}.`
    case 'insufficient-funds':
      return `Fund the validator's account (Secret ${ctx.node}-account, or the one .spec.validator names) with at least ${facts.needs}, then let the operator retry.`
    case 'unknown':
      return `Read the operator log for this node: kubectl logs -n ${ctx.operator.split('/')[0]} deploy/${ctx.operator.split('/')[1]} -c manager | grep ${ctx.node}`
  }
}

/** Why the operator cannot reconcile the node, in words, for a cause the catalogue knows. */
export function causeWords(cause: Exclude<ReconcileCause, 'unknown'>, resources?: string[]): string {
  return cause === 'quota' ? quotaCause(resources) : CAUSES[cause]
}

/** What the quota refused, by the resources the refused object asked for. */
function quotaCause(resources: string[] | undefined): string {
  const asked = (resources ?? []).join(' ')
  const what = /storage|persistentvolumeclaims/.test(asked) ? 'the volumes' : /services|nodeports|loadbalancers/.test(asked) ? 'the Services' : 'the Pods'
  return `a ResourceQuota of the namespace refuses ${what} it creates`
}

const CAUSES: Record<Exclude<ReconcileCause, 'unknown'>, string> = {
  'priority-class': 'a Pod it creates names a PriorityClass that does not exist',
  quota: 'a ResourceQuota of the namespace refuses the Pods it creates',
  'pod-security': "the namespace's Pod Security level refuses the Pods it creates",
  'admission-denied': 'an admission policy refuses what it creates',
  webhook: 'an admission webhook the API server calls cannot be reached or trusted',
  rbac: 'its service account is not allowed an operation it needs',
  'secret-missing': 'a Secret the node refers to does not exist',
  'configmap-missing': 'a ConfigMap the node refers to does not exist',
  'snapshot-missing': 'the VolumeSnapshot to restore from does not exist',
  genesis: 'it cannot obtain the genesis',
  'crd-missing': 'a custom resource kind it needs is not installed',
  'invalid-spec': 'the spec is invalid',
  'start-timeout': 'the node Pod it created did not start its main container in time',
  'limit-range': 'a LimitRange of the namespace refuses the Pod it creates',
  'permission-denied': 'the key backend refuses its credentials',
  'object-missing': 'an object the node refers to does not exist',
  'pod-terminating': 'the old Pod of the node does not finish terminating, so the new one cannot be created',
  'remote-store': 'a remote store refuses its request',
  timeout: 'what it waits for does not happen in time',
  unreachable: 'a service it calls cannot be reached',
  ownership: 'an object it must manage belongs to someone else',
  'key-reserved': 'another owner holds the consensus key',
  'insufficient-funds': "the validator's account cannot pay for the transaction",
  pruned: 'a block it needs is pruned on the node',
}
