import { Args, Flags } from '@oclif/core'
import { usageError } from '../../util/errors.js'
import type { Arg, BooleanFlag, OptionFlag } from '@oclif/core/interfaces'
import { choicesOf, takesValue, type ArgSpecs, type ArgValueOf, type FlagSpec, type FlagSpecs, type FlagValueOf } from '../../commands/flag-spec.js'

/** The oclif flag type a spec becomes, so `this.parse` still knows each flag's value type. */
export type OclifFlagOf<S> = S extends { type: 'boolean' } ? BooleanFlag<boolean> : OptionFlag<FlagValueOf<S>>

function oclifFlag<S extends FlagSpec>(flagName: string, spec: S): OclifFlagOf<S> {
  const { type, ...rest } = spec as FlagSpec
  if (type === 'boolean') return Flags.boolean(rest as never) as never
  if (type === 'integer') return Flags.integer(rest as never) as never
  // `parse` makes the runner's value after oclif has read the text (flag-spec.ts flagValues), as the quick start does.
  const { options, templated, multiple, parse: _value, ...plain } = rest as Omit<Extract<FlagSpec, { type: 'string' }>, 'type'>
  // oclif checks options by equality; a templated option (jsonpath=TEMPLATE) is checked by takesValue instead.
  const choices = templated
    ? {
        // Help as oclif shows options, under the description (a helpValue listing them would widen every flag's line).
        helpValue: '<option>',
        description: `${plain.description}\n<options: ${choicesOf({ options, templated }).join('|')}>`,
        parse: async (raw: string) => {
          if (takesValue({ options, templated }, raw)) return raw
          throw usageError(`Expected --${flagName}=${raw} to be one of: ${choicesOf({ options, templated }).join(', ')}`, 'see --help')
        },
      }
    : options
      ? { options: [...options] }
      : {}
  return Flags.string({ ...plain, ...choices, ...(multiple ? { multiple: true } : {}) } as never) as never
}

/** oclif flags for framework-neutral specs (src/commands/flag-spec.ts). */
export function oclifFlags<T extends FlagSpecs>(specs: T): { [K in keyof T]: OclifFlagOf<T[K]> } {
  return Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, oclifFlag(name, spec)])) as never
}

/** oclif arguments for the specs of a command's positional arguments, in their order. */
export function oclifArgs<T extends ArgSpecs>(specs: T): { [K in keyof T]: Arg<ArgValueOf<T[K]>> } {
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, Args.string({ ...spec, ...(spec.options ? { options: [...spec.options] } : {}) } as never)]),
  ) as never
}
