import { Parser } from '@oclif/core'
import { describe, expect, it } from 'vitest'
import { COLLECT_COMMAND } from '../../src/commands/collect.js'
import { REDACT_COMMAND } from '../../src/commands/redact.js'
import { DIFF_COMMAND } from '../../src/commands/diff.js'
import { CONFIG_HASH_COMMAND, CONFIG_HASH_DIFF_COMMAND } from '../../src/commands/config-hash.js'
import { DESCRIBE_COMMAND } from '../../src/commands/describe.js'
import { DOCTOR_COMMAND } from '../../src/commands/doctor.js'
import { phaseTimeouts } from '../../src/commands/diagnosis-flags.js'
import { EVENTS_COMMAND } from '../../src/commands/events.js'
import { flagValues, type CommandSpec } from '../../src/commands/flag-spec.js'
import { LOGS_COMMAND } from '../../src/commands/logs.js'
import { parseArgv, parseCommandLine } from '../../src/entry/parse-argv.js'
import {
  PPROF_ALLOCS_COMMAND,
  PPROF_BLOCK_COMMAND,
  PPROF_GOROUTINE_COMMAND,
  PPROF_HEAP_COMMAND,
  PPROF_MUTEX_COMMAND,
  PPROF_PROFILE_COMMAND,
  PPROF_TOP_COMMAND,
  PPROF_FLAME_COMMAND,
  PPROF_TRACE_COMMAND,
} from '../../src/commands/pprof.js'
import { COMMANDS as REGISTRY, type CommandId } from '../../src/commands/index.js'
import { COMMANDS as OCLIF_COMMANDS } from '../../src/entry/command-index.js'
import { quickCommandOf } from '../../src/entry/quick-commands.js'
import { RULES_COMMAND, RULES_EXPLAIN_COMMAND } from '../../src/commands/rules.js'
import { SERVE_COMMAND } from '../../src/commands/serve.js'
import { SIGNER_COMMAND } from '../../src/commands/signer.js'
import { STATUS_COMMAND } from '../../src/commands/status.js'
import { TIMELINE_COMMAND } from '../../src/commands/timeline.js'
import { VERSION_COMMAND } from '../../src/commands/version.js'

type OclifCommand = { baseFlags?: object; flags?: object; args?: object }

/** The oclif class the registry makes for a command (src/entry/command-index.ts). */
const oclifCommand = (id: CommandId): OclifCommand => OCLIF_COMMANDS[id.replace(/ /g, ':')]
const Doctor = oclifCommand('doctor')
const Status = oclifCommand('status')
const Events = oclifCommand('events')

/** What oclif makes of a command line: the reference the quick start must agree with. */
async function oclifParseWith(command: OclifCommand, argv: string[]) {
  try {
    const { args, flags } = await Parser.parse(argv, { flags: { ...command.baseFlags, ...command.flags }, args: command.args } as never)
    return { args, flags }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

const oclifParse = (argv: string[]) => oclifParseWith(Doctor, argv)
const quick = (argv: string[]) => parseArgv(argv, DOCTOR_COMMAND)

/** Both parsers on one line: the quick start's result must be oclif's (or the line must go to oclif). */
async function expectSameParse(spec: CommandSpec, command: OclifCommand, argv: string[]) {
  const ours = parseArgv(argv, spec)
  expect(ours).toBeDefined()
  const reference = await oclifParseWith(command, argv)
  expect(reference).not.toHaveProperty('error')
  expect(ours!.args).toEqual(reference.args)
  // oclif leaves unset booleans out; the quick start makes them false.
  const theirs = Object.fromEntries(
    Object.keys(ours!.flags).map((name) => [name, (reference.flags as Record<string, unknown>)[name] ?? (ours!.flags[name] === false ? false : undefined)]),
  )
  expect(ours!.flags).toEqual(theirs)
  // Every flag oclif knows, the spec knows: one definition behind both.
  expect(Object.keys(reference.flags as object).filter((name) => !(name in ours!.flags))).toEqual([])
}

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

const COMMANDS: Record<CommandId, { spec: CommandSpec; lines: string[][]; handedOver: string[][] }> = {
  doctor: { spec: DOCTOR_COMMAND, lines: [['fullnode-0', '--no-probe', '--gate-timeout', '3s']], handedOver: [['--help']] },
  timeline: {
    spec: TIMELINE_COMMAND,

    lines: [
      ['fullnode-0', '--since', '2h', '--utc'],
      ['-n', 'cosmos', '--set', 'hub', '-o', 'markdown', '--until', '2026-11-22T13:00:00Z'],
      ['--bundle', 'x.tgz', '--all', '-o', 'json', '--no-redact', '--tail', '50'],
    ],
    handedOver: [['-o', 'junit'], ['-h']],
  },
  status: {
    spec: STATUS_COMMAND,

    lines: [
      ['fullnode-0', '-n', 'cosmos'],
      ['--all', '-o', 'wide', '-w', '--no-headers'],
      ['-A', '-l', 'validator=true', '-o', 'yaml', '--context', 'a,b'],
      // kubectl's -o jsonpath=TEMPLATE, in the three ways kubectl users type it.
      ['-o', 'jsonpath={.items[*].metadata.name}'],
      ['-o=jsonpath={range .items[*]}{.metadata.name}{"\t"}{.status.latestHeight}{"\n"}{end}', '-A'],
      ['-ojsonpath={.items[0].status.phase}', '-n', 'cosmos'],
      ['fullnode-0', '--output=jsonpath={.status.phase}'],
    ],
    handedOver: [['-o', 'markdown'], ['a', 'b'], ['--help'], ['-o', 'jsonpath'], ['-o', 'jsonpathx={.a}'], ['-o', 'json={.a}']],
  },
  events: {
    spec: EVENTS_COMMAND,

    lines: [
      ['fullnode-0', '-n', 'cosmos'],
      ['fullnode-0', '--for', 'pod/fullnode-0', '-w'],
      ['--bundle', 'b.tgz', '-l', 'nodeset=hub', '-o', 'yaml'],
    ],
    handedOver: [['-o', 'wide'], ['--for']],
  },
  describe: {
    spec: DESCRIBE_COMMAND,

    lines: [
      ['fullnode-0', '-n', 'cosmos'],
      ['fullnode-0', '--bundle', 'x.tgz', '--no-color'],
    ],
    handedOver: [[], ['--all'], ['-n', 'cosmos']],
  },
  logs: {
    spec: LOGS_COMMAND,

    lines: [
      ['fullnode-0', '-n', 'cosmos'],
      ['fullnode-0', '-c', 'node-utils', '--grep', 'profil', '-p', '--since', '10m'],
      ['fullnode-0', '-c', 'all', '-f', '--tail', '5', '--request-timeout', '0'],
    ],
    handedOver: [[], ['fullnode-0', '-c']],
  },
  signer: {
    spec: SIGNER_COMMAND,

    lines: [
      ['validator-0', '-n', 'cosmos'],
      ['validator-0', '--no-probe', '--gate-timeout', '10s', '-o', 'json'],
    ],
    handedOver: [[], ['validator-0', '-o', 'yaml']],
  },
  collect: {
    spec: COLLECT_COMMAND,

    lines: [
      ['fullnode-0', '-n', 'cosmos', '--out', 'incident.tgz'],
      ['--all', '--out=./dir', '--tail=-1', '--no-redact'],
    ],
    handedOver: [['fullnode-0'], ['--bundle', 'x.tgz', '--out', 'y.tgz']],
  },
  diff: {
    spec: DIFF_COMMAND,

    lines: [
      ['old.tgz', 'new.tgz'],
      ['old.tgz', 'live', '-n', 'cosmos', '-o', 'markdown', '--fail-on', 'warning'],
    ],
    handedOver: [['old.tgz'], ['a.tgz', 'b.tgz', '-o', 'yaml']],
  },
  redact: {
    spec: REDACT_COMMAND,

    lines: [
      ['in.tgz', '--out', 'out.tgz'],
      ['./dir', '--out=./redacted', '--debug'],
    ],
    handedOver: [[], ['in.tgz'], ['in.tgz', '--out', 'o.tgz', '--no-redact']],
  },
  rules: {
    spec: RULES_COMMAND,

    lines: [[], ['-o', 'json'], ['--no-color', '--debug']],
    handedOver: [['explain', 'image-pull'], ['explain'], ['-o', 'yaml']],
  },
  'config-hash': {
    spec: CONFIG_HASH_COMMAND,

    lines: [
      ['fullnode-0', '-n', 'cosmos'],
      ['fullnode-0', '--watch', '-o', 'json', '--bundle', 'x.tgz'],
    ],
    handedOver: [['diff', 'a.tgz', 'b.tgz'], ['diff'], []],
  },
  'config-hash diff': {
    spec: CONFIG_HASH_DIFF_COMMAND,

    lines: [
      ['a.tgz', 'b.tgz'],
      ['a.tgz', 'live', '--node', 'cfg-1', '-n', 'sc-config-change-restart', '-o', 'json'],
      ['a', 'b', '--tail=-1', '--no-redact', '--context', 'prod'],
    ],
    handedOver: [[], ['a.tgz'], ['a.tgz', 'b.tgz', 'c.tgz'], ['a.tgz', 'b.tgz', '-o', 'yaml'], ['a.tgz', 'b.tgz', '--node']],
  },
  'rules explain': {
    spec: RULES_EXPLAIN_COMMAND,

    lines: [['image-pull'], ['not-syncing', '--debug', '--no-color']],
    handedOver: [[], ['image-pull', 'extra'], ['image-pull', '-o', 'json'], ['--help']],
  },
  serve: {
    spec: SERVE_COMMAND,

    lines: [
      ['-A'],
      ['-n', 'cosmos', '--listen', '127.0.0.1:9844', '--interval', '30s', '--no-probe'],
      ['--set', 'hub', '--skip-rule', 'runs-as-root', '--phase-timeout', 'Starting=2h', '--tail', '50'],
    ],
    handedOver: [['--help']],
  },
  version: {
    spec: VERSION_COMMAND,

    lines: [[], ['-o', 'json'], ['--output=yaml', '--no-color']],
    handedOver: [['-o', 'wide'], ['extra'], ['-h']],
  },
  'pprof top': {
    spec: PPROF_TOP_COMMAND,

    lines: [
      ['heap.pb.gz'],
      ['cpu.pb.gz', '--top', '30', '--cum'],
      ['heap.pb.gz', '--sample-index', 'alloc_space', '--node-fraction=0'],
      ['new.pb.gz', '--base', 'old.pb.gz', '--focus', 'leak', '--ignore=runtime', '-o', 'json'],
    ],
    handedOver: [[], ['heap.pb.gz', '--top', '0'], ['heap.pb.gz', '-o', 'x']],
  },
  'pprof flame': {
    spec: PPROF_FLAME_COMMAND,

    lines: [
      ['cpu.pb.gz'],
      ['heap.pb.gz', '-o', 'heap.svg', '--sample-index', 'alloc_space'],
      ['leak.pb.gz', '--focus', 'leak', '--ignore=runtime', '--node-fraction=0', '--output=leak.html'],
    ],
    handedOver: [[], ['cpu.pb.gz', 'extra.pb.gz'], ['cpu.pb.gz', '--top', '3']],
  },
  'pprof heap': {
    spec: PPROF_HEAP_COMMAND,

    lines: [
      ['fullnode-0', '-n', 'cosmos'],
      ['fullnode-0', '-o', 'heap.pb.gz', '--local-port', '16666', '--top', '5', '--context', 'prod'],
      ['fullnode-0', '--growth', '60s'],
    ],
    handedOver: [[], ['fullnode-0', '--local-port', '70000'], ['fullnode-0', '--seconds', '3']],
  },
  'pprof profile': {
    spec: PPROF_PROFILE_COMMAND,

    lines: [
      ['fullnode-0', '-n', 'cosmos', '--seconds', '10'],
      ['fullnode-0', '--seconds=1', '--request-timeout', '5s'],
    ],
    handedOver: [
      ['fullnode-0', '--seconds', 'ten'],
      ['fullnode-0', '--seconds'],
    ],
  },
  'pprof goroutine': {
    spec: PPROF_GOROUTINE_COMMAND,

    lines: [
      ['fullnode-0', '-n', 'cosmos', '--text', '2'],
      ['fullnode-0', '--growth=1m', '--text=1'],
    ],
    handedOver: [
      ['fullnode-0', '--text', '3'],
      ['fullnode-0', '--seconds', '3'],
    ],
  },
  'pprof allocs': { spec: PPROF_ALLOCS_COMMAND, lines: [['fullnode-0', '--growth', '30s']], handedOver: [['fullnode-0', '--text', '1']] },
  'pprof block': { spec: PPROF_BLOCK_COMMAND, lines: [['fullnode-0', '-o', 'b.pb.gz']], handedOver: [[]] },
  'pprof mutex': { spec: PPROF_MUTEX_COMMAND, lines: [['fullnode-0', '-n', 'cosmos']], handedOver: [['a', 'b']] },
  'pprof trace': {
    spec: PPROF_TRACE_COMMAND,

    lines: [['fullnode-0', '-n', 'cosmos', '--seconds', '3'], ['fullnode-0']],
    handedOver: [
      ['fullnode-0', '--cum'],
      ['a', 'b'],
    ],
  },
}

describe('every quick command parses its lines as oclif does', () => {
  it('has a table for every command the quick start serves', () => {
    expect(Object.keys(COMMANDS).sort()).toEqual(Object.keys(REGISTRY).sort())
  })

  // scripts/bundle.mjs builds each quick bundle from these names: they must name the spec tested here and a runner.
  it.each(Object.entries(REGISTRY))('%s: its registry row names its spec and runner', async (id, { module, spec, run }) => {
    const defined = (await import(`../../src/commands/${module}.ts`)) as Record<string, unknown>
    expect(defined[spec]).toBe(COMMANDS[id as CommandId].spec)
    expect(typeof defined[run]).toBe('function')
  })

  it.each([
    [['rules', 'explain', 'x'], 'rules explain', ['x']],
    [['rules', '-o', 'json'], 'rules', ['-o', 'json']],
    [['pprof', 'top', 'f'], 'pprof top', ['f']],
    [['version'], 'version', []],
  ])('%j names the quick command %s', (argv, id, rest) => expect(quickCommandOf(argv)).toEqual({ id, rest }))

  it.each([[['pprof']], [['completion', 'bash']], [['help', 'status']], [[]]])('%j is no quick command', (argv) => expect(quickCommandOf(argv)).toBeUndefined())

  const cases = Object.entries(COMMANDS).flatMap(([id, c]) => c.lines.map((argv) => [`${id} ${argv.join(' ')}`, id as CommandId, argv] as const))
  it.each(cases)('%s: same flags and args', async (_line, id, argv) => expectSameParse(COMMANDS[id].spec, oclifCommand(id), argv))

  const handed = Object.entries(COMMANDS).flatMap(([id, c]) => c.handedOver.map((argv) => [`${id} ${argv.join(' ')}`, c, argv] as const))
  it.each(handed)('%s: handed to oclif', (_line, c, argv) => expect(parseCommandLine(argv, c.spec)).toBeUndefined())
})

describe('-o jsonpath=TEMPLATE, as kubectl takes it', () => {
  const template = '{range .items[*]}{.metadata.name}{"\\t"}{.status.latestHeight}{"\\n"}{end}'
  it.each([[['-o', `jsonpath=${template}`]], [[`-o=jsonpath=${template}`]], [[`-ojsonpath=${template}`]], [[`--output=jsonpath=${template}`]]])(
    '%j: both parsers keep the whole template',
    async (argv) => {
      expect(parseArgv(argv, STATUS_COMMAND)?.flags.output).toBe(`jsonpath=${template}`)
      expect((await oclifParseWith(Status, argv)).flags).toMatchObject({ output: `jsonpath=${template}` })
    },
  )

  it.each([[['-o', 'jsonpath']], [['-o', 'jsonpath2={.a}']], [['-o', 'markdown']]])('%j: oclif refuses it, naming the choices', async (argv) => {
    expect(parseArgv(argv, STATUS_COMMAND)).toBeUndefined()
    const reference = await oclifParseWith(Status, argv)
    expect(reference.error).toMatch(/text, wide, name, json, yaml, jsonpath=TEMPLATE/)
  })

  it('is status only: a command without templates refuses it in both parsers', async () => {
    expect(parseArgv(['-o', 'jsonpath={.a}'], EVENTS_COMMAND)).toBeUndefined()
    expect(await oclifParseWith(Events, ['-o', 'jsonpath={.a}'])).toHaveProperty('error')
  })
})

describe('--phase-timeout', () => {
  it('reads PHASE=DURATION, repeated or comma-separated', () => {
    expect(['InitializingData=2h', 'Starting=90m,Upgrading=30s'].map(phaseTimeouts)).toEqual([
      [['InitializingData', 7_200_000]],
      [
        ['Starting', 5_400_000],
        ['Upgrading', 30_000],
      ],
    ])
  })
  it.each(['Running=1h', 'Starting', 'Starting=soon'])('refuses %s as a usage error', (value) => {
    expect(() => phaseTimeouts(value)).toThrow(expect.objectContaining({ exitCode: 2 }))
  })
})

describe('values made where the line is parsed (flagValues)', () => {
  const line = ['-A', '--probe-window', '500ms', '--phase-timeout', 'Starting=90m', '-l', 'validator=true']

  it('hands the runner milliseconds and checked values, the same from both parsers, defaults included', async () => {
    const fromQuick = flagValues(DOCTOR_COMMAND, parseCommandLine(line, DOCTOR_COMMAND)!)
    const { args, flags } = (await oclifParseWith(Doctor, line)) as { args: object; flags: object }
    const fromOclif = flagValues(DOCTOR_COMMAND, { ...flags, ...args })
    const values = { 'request-timeout': 30_000, timeout: 120_000, 'probe-window': 500, 'gate-timeout': 25_000, selector: 'validator=true' }
    expect(fromQuick).toMatchObject({ ...values, 'phase-timeout': [[['Starting', 5_400_000]]] })
    expect(fromOclif).toMatchObject({ ...values, 'phase-timeout': [[['Starting', 5_400_000]]] })
  })

  it.each([
    [['--request-timeout', 'soon'], /--request-timeout "soon" is not a duration/],
    [['--timeout', '5 minutes'], /--timeout "5 minutes" is not a duration/],
    [['-l', 'a=b=c'], /--selector "a=b=c" is not a label selector/],
  ])('%j is an input error before anything is read', (argv, message) => {
    expect(() => flagValues(DOCTOR_COMMAND, parseCommandLine(argv, DOCTOR_COMMAND)!)).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringMatching(message) }),
    )
  })
})
