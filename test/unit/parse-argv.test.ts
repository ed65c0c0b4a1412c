import { Parser } from '@oclif/core'
import { describe, expect, it } from 'vitest'
import { BaseCommand } from '../../src/base/command.js'
import { KubeCommand } from '../../src/base/kube-command.js'
import { DOCTOR_COMMAND } from '../../src/cli/doctor.js'
import { parseArgv } from '../../src/cli/parse-argv.js'
import Doctor from '../../src/commands/doctor.js'
import Timeline from '../../src/commands/timeline.js'
import { TIMELINE_COMMAND } from '../../src/cli/timeline.js'

/** What oclif makes of a doctor command line: the reference the quick start must agree with. */
async function oclifParse(argv: string[]) {
  try {
    const { args, flags } = await Parser.parse(argv, { flags: { ...BaseCommand.baseFlags, ...KubeCommand.baseFlags, ...Doctor.flags }, args: Doctor.args })
    return { args, flags }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

const quick = (argv: string[]) => parseArgv(argv, DOCTOR_COMMAND.flags, DOCTOR_COMMAND.args)

describe('quick start argv parsing agrees with oclif', () => {
  const accepted = [
    ['fullnode-0'],
    ['fullnode-0', '-n', 'cosmos', '-o', 'json'],
    ['-n', 'cosmos', 'fullnode-0', '--fail-on=warning', '--no-probe'],
    ['--set', 'hub', '-ncosmos', '--tail', '20', '--debug', '--no-color'],
    ['-A', '-o', 'junit', '--rule', 'image-pull', '--rule', 'not-syncing'],
    ['--all', '--all', '--context', 'a,b', '--request-timeout', '5s', '--kubeconfig', '/tmp/kc'],
    ['--bundle', 'x.tgz', '--skip-rule', 'leader-election', '--gate-timeout', '3s', '--no-redact'],
    ['-n=cosmos', 'fullnode-0'],
    // kubectl's --tail: 0 is no line, -1 every line.
    ['--tail', '0'],
    ['--tail=-1'],
    // kubectl's label selector, short and long.
    ['-l', 'validator=true', '-n', 'cosmos'],
    ['--selector=chain-id in (cosmoshub-4)', '-A'],
  ]
  it.each(accepted.map((argv) => [argv.join(' '), argv]))('%s: same flags and args', async (_line, argv) => {
    const ours = quick(argv)
    expect(ours).toBeDefined()
    const reference = await oclifParse(argv)
    expect(reference).not.toHaveProperty('error')
    expect(ours!.args).toEqual(reference.args)
    // oclif leaves unset booleans out; the quick start makes them false.
    const theirs = Object.fromEntries(
      Object.keys(ours!.flags).map((name) => [name, (reference.flags as Record<string, unknown>)[name] ?? (ours!.flags[name] === false ? false : undefined)]),
    )
    expect(ours!.flags).toEqual(theirs)
  })

  // Help, errors, and lines oclif reads in ways of its own: the quick start hands them over untouched.
  const handedOver: [string[], 'help' | 'error' | 'oclif reads it'][] = [
    [['--help'], 'help'],
    [['-h'], 'help'],
    [['--unknown'], 'error'],
    [['-o', 'yaml'], 'error'],
    [['-o', 'json', '-o', 'text'], 'error'],
    [['--tail', '-2'], 'error'],
    [['--tail=-2'], 'error'],
    // A value that starts with "-" could be a flag: oclif decides.
    [['--tail', '-1'], 'oclif reads it'],
    [['--tail', 'ten'], 'error'],
    [['a', 'b'], 'error'],
    [['-n'], 'error'],
    // oclif reads a multiple flag greedily: NAME would become a rule.
    [['--rule', 'image-pull', 'fullnode-0'], 'oclif reads it'],
    [['--', 'fullnode-0'], 'oclif reads it'],
    // Grouped short flags and a value on a boolean are rare enough to leave to oclif.
    [['-An', 'x'], 'oclif reads it'],
    [['--debug=true'], 'oclif reads it'],
  ]
  it.each(handedOver.map(([argv, why]) => [argv.join(' '), argv, why] as const))('%s: handed to oclif', async (_line, argv, why) => {
    expect(quick(argv)).toBeUndefined()
    if (why === 'error') expect(await oclifParse(argv)).toHaveProperty('error')
  })
})

describe('quick start argv parsing agrees with oclif for timeline', () => {
  const timelineParse = async (argv: string[]) => {
    const { args, flags } = await Parser.parse(argv, { flags: { ...BaseCommand.baseFlags, ...KubeCommand.baseFlags, ...Timeline.flags }, args: Timeline.args })
    return { args, flags }
  }
  it.each([
    ['fullnode-0', '--since', '2h', '--utc'],
    ['-n', 'cosmos', '--set', 'hub', '-o', 'markdown', '--until', '2026-11-22T13:00:00Z'],
    ['--bundle', 'x.tgz', '--all', '-o', 'json', '--no-redact', '--tail', '50'],
  ])('%s: same flags and args', async (...argv) => {
    const ours = parseArgv(argv, TIMELINE_COMMAND.flags, TIMELINE_COMMAND.args)
    expect(ours).toBeDefined()
    const reference = await timelineParse(argv)
    expect(ours!.args).toEqual(reference.args)
    const theirs = Object.fromEntries(
      Object.keys(ours!.flags).map((name) => [name, (reference.flags as Record<string, unknown>)[name] ?? (ours!.flags[name] === false ? false : undefined)]),
    )
    expect(ours!.flags).toEqual(theirs)
  })
})
