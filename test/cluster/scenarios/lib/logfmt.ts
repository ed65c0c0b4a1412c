/**
 * Log line formats of the components that run around a chain node.
 *
 * Every builder returns a {@link LogLine}: the time the runtime would have stamped in the CRI
 * file, and the text the process wrote.
 */

export interface LogLine {
  at: Date
  text: string
}

type Fields = Record<string, string | number | boolean | null | undefined | object>

function logfmtValue(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v)
  return /^[A-Za-z0-9_.\-/:@+]+$/.test(s) && s !== '' ? s : JSON.stringify(s)
}

/** node-utils / vault-renewer: logrus TextFormatter without a TTY. */
export function logrus(at: Date, level: string, msg: string, fields: Fields = {}): LogLine {
  const parts = [`time="${at.toISOString().replace(/\.\d{3}Z$/, 'Z')}"`, `level=${level}`, `msg=${JSON.stringify(msg)}`]
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) parts.push(`${k}=${logfmtValue(v)}`)
  return { at, text: parts.join(' ') }
}

function nanoTs(at: Date, salt: number): string {
  const frac = String(at.getUTCMilliseconds()).padStart(3, '0') + String((salt * 7919) % 1_000_000).padStart(6, '0')
  return at.toISOString().replace(/\.\d{3}Z$/, `.${frac}Z`)
}

let cometSalt = 1
/**
 * CometBFT JSON logger (`log_format = "json"`): go-kit JSON, keys sorted, message in `_msg`,
 * time in `ts` (RFC3339Nano, UTC).
 */
export function comet(at: Date, level: string, module: string, msg: string, fields: Fields = {}): LogLine {
  const all: Fields = { ...fields, _msg: msg, level, module, ts: nanoTs(at, cometSalt++) }
  const sorted: Fields = {}
  for (const k of Object.keys(all).sort()) if (all[k] !== undefined) sorted[k] = all[k]
  return { at, text: JSON.stringify(sorted) }
}

/**
 * How zap writes `ts`: epoch seconds as a float (controller-runtime before v0.15 and builds that keep
 * zap's production default) or RFC 3339 (zapcore.RFC3339TimeEncoder, controller-runtime's default since).
 */
export type ZapTime = 'epoch' | 'rfc3339'

/** controller-runtime production zap: JSON lines. */
export function zapJson(at: Date, level: string, logger: string | undefined, msg: string, fields: Fields = {}, time: ZapTime = 'rfc3339'): LogLine {
  const ts = time === 'epoch' ? at.getTime() / 1000 + 0.0003217 : at.toISOString().replace(/\.\d{3}Z$/, 'Z')
  const obj: Fields = { level, ts, ...(logger ? { logger } : {}), msg }
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) obj[k] = v
  // The production encoder adds a stacktrace at error level (controller-runtime's StacktraceLevel).
  if (level === 'error' && obj.stacktrace === undefined) obj.stacktrace = OPERATOR_STACK
  return { at, text: JSON.stringify(obj) }
}

/** Fields controller-runtime adds to every reconcile log line. */
export function reconcileFields(kind: 'ChainNode' | 'ChainNodeSet', ns: string, name: string, reconcileID: string): Fields {
  return {
    controller: kind.toLowerCase(),
    controllerGroup: 'cosmopilot.voluzi.com',
    controllerKind: kind,
    [kind]: { name, namespace: ns },
    namespace: ns,
    name,
    reconcileID,
  }
}

/** Where the operator's own logger.Error lines come from (its Reconcile). */
const OPERATOR_STACK = [
  'github.com/voluzi/cosmopilot/v3/internal/controllers/chainnode.(*Reconciler).Reconcile',
  '\t/workspace/internal/controllers/chainnode/controller.go:260',
].join('\n')

/** Where controller-runtime v0.24 logs a reconcile that returned an error (zap adds it at error level). */
const RECONCILE_STACK = [
  'sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).reconcileHandler',
  '\t/go/pkg/mod/sigs.k8s.io/controller-runtime@v0.24.1/pkg/internal/controller/controller.go:474',
  'sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).processNextWorkItem',
  '\t/go/pkg/mod/sigs.k8s.io/controller-runtime@v0.24.1/pkg/internal/controller/controller.go:421',
  'sigs.k8s.io/controller-runtime/pkg/internal/controller.(*Controller[...]).Start.func1.1',
  '\t/go/pkg/mod/sigs.k8s.io/controller-runtime@v0.24.1/pkg/internal/controller/controller.go:296',
].join('\n')

/** controller-runtime's `Reconciler error` line: the error the operator's Reconcile returned. */
export function reconcilerError(
  at: Date,
  kind: 'ChainNode' | 'ChainNodeSet',
  ns: string,
  name: string,
  reconcileID: string,
  error: string,
  time: ZapTime = 'rfc3339',
): LogLine {
  return zapJson(at, 'error', undefined, 'Reconciler error', { ...reconcileFields(kind, ns, name, reconcileID), error, stacktrace: RECONCILE_STACK }, time)
}

/**
 * The times controller-runtime retries an object whose reconcile keeps failing: the default rate
 * limiter's per-item backoff, 5 ms doubling up to 1000 s. Seconds before `now`, oldest first.
 */
export function retryTimes(firstAgo: number): number[] {
  const out: number[] = []
  for (let at = firstAgo, n = 0; at > 0; n++) {
    out.push(at)
    at -= Math.min(0.005 * 2 ** n, 1000)
  }
  return out
}

/** klog text header (client-go leader election and friends). */
export function klog(at: Date, sev: 'I' | 'W' | 'E', source: string, msg: string, pid = 1): LogLine {
  const mm = String(at.getUTCMonth() + 1).padStart(2, '0')
  const dd = String(at.getUTCDate()).padStart(2, '0')
  const time = at.toISOString().slice(11, 23) + '000'
  return { at, text: `${sev}${mm}${dd} ${time}${String(pid).padStart(8, ' ')} ${source}] ${msg}` }
}

/** Rust tracing (tmkms): `<ts>  INFO target: message`. */
export function tracing(at: Date, level: 'INFO' | 'WARN' | 'ERROR' | 'DEBUG', target: string, msg: string): LogLine {
  const lv = level.length === 4 ? ` ${level}` : level
  return { at, text: `${nanoTs(at, 3).replace(/(\.\d{6})\d{3}Z$/, '$1Z')} ${lv} ${target}: ${msg}` }
}

/** cosmosigner (zap JSON, ISO time). */
export function signerJson(at: Date, level: string, msg: string, fields: Fields = {}): LogLine {
  return { at, text: JSON.stringify({ level, ts: at.toISOString(), msg, ...fields }) }
}

export function sortLines(lines: LogLine[]): LogLine[] {
  return [...lines].sort((a, b) => a.at.getTime() - b.at.getTime())
}
