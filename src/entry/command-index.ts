/**
 * Every command as an oclif class, keyed by its oclif id, for oclif's explicit discovery (package.json
 * oclif.commands; scripts/bundle.mjs bundles this file as dist/bundle/commands.js). Made from the command
 * registry (src/commands/index.ts); only completion, whose help is its shell scripts, has a class of its own.
 */
import type { Command } from '@oclif/core'
import * as collect from '../commands/collect.js'
import * as configHash from '../commands/config-hash.js'
import * as describe from '../commands/describe.js'
import * as diff from '../commands/diff.js'
import * as doctor from '../commands/doctor.js'
import * as events from '../commands/events.js'
import * as logs from '../commands/logs.js'
import * as pprof from '../commands/pprof.js'
import * as redact from '../commands/redact.js'
import * as rules from '../commands/rules.js'
import * as serve from '../commands/serve.js'
import * as signer from '../commands/signer.js'
import * as status from '../commands/status.js'
import * as timeline from '../commands/timeline.js'
import * as version from '../commands/version.js'
import { COMMANDS as REGISTRY, type CommandId, type CommandModules } from '../commands/index.js'
import type { CommandSpec } from '../commands/flag-spec.js'
import { oclifCommandFor, type Runner } from './oclif/command-for.js'
import Completion from './oclif/completion.js'

const MODULES: CommandModules = { collect, 'config-hash': configHash, describe, diff, doctor, events, logs, pprof, redact, rules, serve, signer, status, timeline, version }

/** A registry row's spec and runner, looked up in its module (the registry's types have checked the names). */
function classOf(id: CommandId) {
  const { module, spec, run } = REGISTRY[id]
  const exported = MODULES[module] as unknown as Record<string, unknown>
  return oclifCommandFor(exported[spec] as CommandSpec, exported[run] as Runner<CommandSpec>)
}

/** oclif's ids join the words with ":" (`rules explain` is rules:explain); by id, as oclif lists them. */
export const COMMANDS: Record<string, Command.Class> = Object.fromEntries(
  [...Object.keys(REGISTRY).map((id) => [id.replace(/ /g, ':'), classOf(id as CommandId)] as const), ['completion', Completion] as const].sort(([a], [b]) =>
    a < b ? -1 : 1,
  ),
)
