/*
 * Unit scaling and number formatting as google/pprof's
 * internal/measurement does it, so our text matches `go tool pprof`
 * character for character. Go's fmt rounds exact ties to even where JS's
 * toFixed/toExponential round them up; goFixed/goPrecision correct that.
 */

interface Unit {
  name: string
  aliases: readonly string[]
  factor: number
}

interface UnitType {
  defaultUnit: Unit
  units: readonly Unit[]
}

const SECOND = 1e9

const UNIT_TYPES: readonly UnitType[] = [
  {
    units: [
      { name: 'B', aliases: ['b', 'byte'], factor: 1 },
      { name: 'kB', aliases: ['kb', 'kbyte', 'kilobyte'], factor: 2 ** 10 },
      { name: 'MB', aliases: ['mb', 'mbyte', 'megabyte'], factor: 2 ** 20 },
      { name: 'GB', aliases: ['gb', 'gbyte', 'gigabyte'], factor: 2 ** 30 },
      { name: 'TB', aliases: ['tb', 'tbyte', 'terabyte'], factor: 2 ** 40 },
      { name: 'PB', aliases: ['pb', 'pbyte', 'petabyte'], factor: 2 ** 50 },
    ],
    defaultUnit: { name: 'B', aliases: ['b', 'byte'], factor: 1 },
  },
  {
    units: [
      { name: 'ns', aliases: ['ns', 'nanosecond'], factor: 1 },
      { name: 'us', aliases: ['μs', 'us', 'microsecond'], factor: 1e3 },
      { name: 'ms', aliases: ['ms', 'millisecond'], factor: 1e6 },
      { name: 's', aliases: ['s', 'sec', 'second'], factor: SECOND },
      { name: 'hrs', aliases: ['hour', 'hr'], factor: 3600 * SECOND },
    ],
    defaultUnit: { name: 's', aliases: [], factor: SECOND },
  },
  {
    units: [
      { name: 'n*GCU', aliases: ['nanogcu'], factor: 1e-9 },
      { name: 'u*GCU', aliases: ['microgcu'], factor: 1e-6 },
      { name: 'm*GCU', aliases: ['milligcu'], factor: 1e-3 },
      { name: 'GCU', aliases: ['gcu'], factor: 1 },
      { name: 'k*GCU', aliases: ['kilogcu'], factor: 1e3 },
      { name: 'M*GCU', aliases: ['megagcu'], factor: 1e6 },
      { name: 'G*GCU', aliases: ['gigagcu'], factor: 1e9 },
      { name: 'T*GCU', aliases: ['teragcu'], factor: 1e12 },
      { name: 'P*GCU', aliases: ['petagcu'], factor: 1e15 },
    ],
    defaultUnit: { name: 'GCU', aliases: [], factor: 1 },
  },
]

function sniffUnit(ut: UnitType, unit: string): Unit | undefined {
  let u = unit.toLowerCase()
  // Go measures length in bytes: "μs" is 3 bytes long.
  if (Buffer.byteLength(u) > 2 && u.endsWith('s')) u = u.slice(0, -1)
  return ut.units.find((x) => x.aliases.includes(u))
}

function autoScale(ut: UnitType, value: number): [number, string] | undefined {
  let f = 0
  let unit = ''
  for (const u of ut.units) {
    if (u.factor >= f && value / u.factor >= 1.0) {
      f = u.factor
      unit = u.name
    }
  }
  return f === 0 ? undefined : [value / f, unit]
}

function convertUnit(ut: UnitType, value: number, fromUnit: string, toUnit: string): [number, string] | undefined {
  const from = sniffUnit(ut, fromUnit)
  if (from === undefined) return undefined
  const v = value * from.factor
  if (toUnit === 'minimum' || toUnit === 'auto') {
    return autoScale(ut, v) ?? [v / ut.defaultUnit.factor, ut.defaultUnit.name]
  }
  const to = sniffUnit(ut, toUnit) ?? ut.defaultUnit
  return [v / to.factor, to.name]
}

/**
 * measurement.Scale: converts `value` in `fromUnit` to `toUnit`
 * ("minimum"/"auto" pick a unit). The returned unit is "" for plain counts.
 */
export function scale(value: number, fromUnit: string, toUnit: string): [number, string] {
  if (value < 0) {
    const [v, u] = scale(-value, fromUnit, toUnit)
    return [-v, u]
  }
  for (const ut of UNIT_TYPES) {
    const r = convertUnit(ut, value, fromUnit, toUnit)
    if (r !== undefined) return r
  }
  switch (toUnit) {
    case 'count':
    case 'sample':
    case 'unit':
    case 'minimum':
    case 'auto':
      return [value, '']
    default:
      return [value, toUnit]
  }
}

/** measurement.ScaledLabel: "%.2f" of the scaled value, ".00" trimmed, unit appended. */
export function scaledLabel(value: number, fromUnit: string, toUnit: string): string {
  const [v, u] = scale(value, fromUnit, toUnit)
  let sv = goFixed(v, 2)
  if (sv.endsWith('.00')) sv = sv.slice(0, -3)
  if (sv === '0' || sv === '-0') return '0'
  return sv + u
}

/** measurement.Percentage: always 6 characters wide for values below 100%. */
export function percentage(value: number, total: number): string {
  const ratio = total !== 0 ? Math.abs(value / total) * 100 : 0
  if (ratio >= 99.95 && ratio <= 100.05) return '  100%'
  if (ratio >= 1.0) return `${goFixed(ratio, 2).padStart(5)}%`
  return `${goG2(ratio).padStart(5)}%`
}

/** Go's "%.{prec}f": like toFixed but exact ties round to even. */
export function goFixed(x: number, prec: number): string {
  const s = x.toFixed(prec)
  const a = Math.abs(x)
  if (!Number.isFinite(x) || a >= 1e21) return s
  const exact = a.toFixed(Math.min(100, prec + 40))
  const dot = exact.indexOf('.')
  const tail = exact.slice(dot + 1 + prec)
  if (!/^50*$/.test(tail)) return s
  // A tie: JS rounded away from zero; Go keeps the even neighbour.
  const kept = prec === 0 ? exact.slice(0, dot) : exact.slice(0, dot + 1 + prec)
  const last = kept.charCodeAt(kept.length - 1) - 48
  if (last % 2 === 1) return s
  return (x < 0 ? '-' : '') + kept
}

/** Go's "%.2g" for a non-negative number. */
export function goG2(x: number): string {
  if (x === 0) return '0'
  // Two significant digits, exact ties to even.
  let e = x.toExponential(1) // "d.de±x"
  const exact = x.toExponential(Math.min(100, 41))
  const mant = exact.slice(0, exact.indexOf('e'))
  if (/^\d\.\d50*$/.test(mant) && Number(mant[2]) % 2 === 0) {
    e = `${mant.slice(0, 3)}${exact.slice(exact.indexOf('e'))}`
  }
  const [m, expStr] = e.split('e') as [string, string]
  let digits = m.replace('.', '')
  const exp = Number(expStr)
  digits = digits.replace(/0+$/, '')
  if (digits === '') digits = '0'
  const nd = digits.length
  const dp = exp + 1
  let eprec = 2
  if (eprec > nd && nd >= dp) eprec = nd
  if (exp < -4 || exp >= eprec) {
    const p = Math.min(2, nd)
    const mantissa = p > 1 ? `${digits[0]}.${digits.slice(1, p)}` : digits[0]!
    const ae = Math.abs(exp)
    return `${mantissa}e${exp < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`
  }
  const prec = 2 > dp ? nd : 2
  const decimals = Math.max(prec - dp, 0)
  // Build the fixed form from the digits to avoid a second rounding.
  let intPart: string
  let frac: string
  if (dp <= 0) {
    intPart = '0'
    frac = '0'.repeat(-dp) + digits
  } else if (dp >= nd) {
    intPart = digits + '0'.repeat(dp - nd)
    frac = ''
  } else {
    intPart = digits.slice(0, dp)
    frac = digits.slice(dp)
  }
  frac = frac.padEnd(decimals, '0').slice(0, decimals)
  return decimals > 0 ? `${intPart}.${frac}` : intPart
}
