import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { ROOT } from './cli.js'

/** Validate a value against one of the JSON Schemas shipped in schema/; returns the error list (empty when valid). */
export function schemaErrors(schemaFile: string, value: unknown): string[] {
  const schema = JSON.parse(readFileSync(path.join(ROOT, 'schema', schemaFile), 'utf8'))
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false })
  const validate = ajv.compile(schema)
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
}
