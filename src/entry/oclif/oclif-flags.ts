import { Args, Flags } from '@oclif/core'
import type { Arg, BooleanFlag, OptionFlag } from '@oclif/core/interfaces'
import type { ArgSpecs, ArgValueOf, FlagSpec, FlagSpecs, FlagValueOf } from '../../commands/flag-spec.js'

/** The oclif flag type a spec becomes, so `this.parse` still knows each flag's value type. */
export type OclifFlagOf<S> = S extends { type: 'boolean' } ? BooleanFlag<boolean> : OptionFlag<FlagValueOf<S>>

function oclifFlag<S extends FlagSpec>(spec: S): OclifFlagOf<S> {
  const { type, ...rest } = spec as FlagSpec
  if (type === 'boolean') return Flags.boolean(rest as never) as never
  if (type === 'integer') return Flags.integer(rest as never) as never
  const { options, multiple, ...plain } = rest as Omit<Extract<FlagSpec, { type: 'string' }>, 'type'>
  return Flags.string({ ...plain, ...(options ? { options: [...options] } : {}), ...(multiple ? { multiple: true } : {}) } as never) as never
}

/** oclif flags for framework-neutral specs (src/commands/flag-spec.ts). */
export function oclifFlags<T extends FlagSpecs>(specs: T): { [K in keyof T]: OclifFlagOf<T[K]> } {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, oclifFlag(spec)])) as never
}

/** oclif arguments for the specs of a command's positional arguments, in their order. */
export function oclifArgs<T extends ArgSpecs>(specs: T): { [K in keyof T]: Arg<ArgValueOf<T[K]>> } {
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, Args.string({ ...spec, ...(spec.options ? { options: [...spec.options] } : {}) } as never)]),
  ) as never
}
