import { describe, expect, it } from 'vitest'
import { goFixed, goG2, percentage, scale, scaledLabel } from '../../../src/pprof/measurement.js'

describe('Go number formatting', () => {
  it.each([
    [0.125, 2, '0.12'], // exact tie: Go rounds to even, toFixed would say 0.13
    [0.375, 2, '0.38'],
    [1.125, 2, '1.12'],
    [2.5, 0, '2'],
    [3.5, 0, '4'],
    [-0.125, 2, '-0.12'],
    [0.1 + 0.2, 2, '0.30'],
    [1.005, 2, '1.00'], // 1.005 is below the tie in binary
    [12345.678, 2, '12345.68'],
  ])('%%.%2$sf of %1$s is %3$s', (x, prec, want) => {
    expect(goFixed(x, prec)).toBe(want)
  })

  it.each([
    [0, '0'],
    [0.5, '0.5'],
    [0.05, '0.05'],
    [0.012345, '0.012'],
    [0.00005, '5e-05'],
    [0.000123, '0.00012'],
    [0.99, '0.99'],
    [0.996, '1'],
    [0.125, '0.12'],
    [0.135, '0.14'],
    [0.25, '0.25'],
  ])('%%.2g of %s is %s', (x, want) => {
    expect(goG2(x)).toBe(want)
  })
})

describe('measurement', () => {
  it('scales bytes by 1024 and time by 1000', () => {
    expect(scaledLabel(1536, 'bytes', 'auto')).toBe('1.50kB')
    expect(scaledLabel(5 * 2 ** 20, 'bytes', 'MB')).toBe('5MB')
    expect(scaledLabel(1234, 'bytes', 'kB')).toBe('1.21kB')
    expect(scaledLabel(30_000_000, 'nanoseconds', 's')).toBe('0.03s')
    expect(scaledLabel(1_500_000, 'nanoseconds', 'auto')).toBe('1.50ms')
    expect(scaledLabel(7200e9, 'nanoseconds', 'auto')).toBe('2hrs')
    expect(scaledLabel(0, 'bytes', 'MB')).toBe('0')
    expect(scaledLabel(-1, 'bytes', 'MB')).toBe('0') // "-0.00" prints as 0
  })

  it('prints counts plain and unknown units as suffixes', () => {
    expect(scaledLabel(13, 'count', 'count')).toBe('13')
    expect(scaledLabel(7, 'widgets', 'widgets')).toBe('7widgets')
    expect(scale(5, 'count', 'minimum')).toEqual([5, ''])
  })

  it('formats percentages like pprof', () => {
    expect(percentage(1, 1)).toBe('  100%')
    expect(percentage(9996, 10000)).toBe('  100%')
    expect(percentage(5, 10)).toBe('50.00%')
    expect(percentage(-5, 10)).toBe('50.00%')
    expect(percentage(1, 300)).toBe(' 0.33%')
    expect(percentage(1, 2000)).toBe(' 0.05%')
    expect(percentage(0, 10)).toBe('    0%')
    expect(percentage(0, 0)).toBe('    0%')
  })
})
