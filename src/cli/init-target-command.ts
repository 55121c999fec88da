import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { DISPOSABLE_USERS_NEEDED } from '../target/disposable-slots.js'
import { ACTOR_DESCRIPTIONS, ACTOR_NAMES, INACTIVE_DESCRIPTIONS } from '../target/target-format.js'
import { PLACEHOLDER, TARGET_SCHEMA_PATH } from '../contract/target/target.js'
import { readCommandArgs } from './read-command-args.js'

const INIT_TARGET_USAGE = `users-api-kit init-target — write a target file to fill in, for verify, fuzz and gate

Usage: users-api-kit init-target [FILE]      (default users-api.target.json)

  --force      Overwrite FILE if it exists
  -h, --help   This help

The file names your backend's base URL and tokens of its users. Every value to fill in starts with
${PLACEHOLDER}; an actor you lack can be deleted (its checks are then skipped, saying so). Your editor
explains each field from the file's $schema. Then: users-api-kit verify --target FILE`

/** `users-api-kit init-target [FILE]`: 0 once written, 1 when the file exists (without --force). */
export async function runInitTargetCommand(args: string[]): Promise<number> {
  const options = readCommandArgs('init-target', INIT_TARGET_USAGE, parseInitTargetArgs, args)
  if (typeof options === 'number') return options
  if (existsSync(options.file) && !options.force) {
    console.error(`users-api-kit init-target: ${options.file} exists; give another name, or --force to overwrite it.`)
    return 1
  }
  await writeFile(options.file, `${JSON.stringify(targetTemplate(options.file), null, 2)}\n`)
  console.log(
    `Wrote ${options.file}. Replace every ${PLACEHOLDER} value with your backend's (an actor you lack can go), then:\n` +
      `  users-api-kit verify --target ${options.file}`,
  )
  return 0
}

function parseInitTargetArgs(args: string[]): { file: string; force: boolean; help: boolean } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  })
  if (positionals.length > 1) throw new Error(`One file at most, not ${positionals.length}.`)
  return { file: positionals[0] ?? 'users-api.target.json', force: values.force ?? false, help: values.help ?? false }
}

/** The template: the fields of schemas/target.schema.json a backend fills in, each value saying what belongs there. */
function targetTemplate(file: string): Record<string, unknown> {
  const schema = relative(dirname(file), TARGET_SCHEMA_PATH) || TARGET_SCHEMA_PATH
  const actor = (who: string) => ({ token: `${PLACEHOLDER}: the Bearer token of ${who}` })
  return {
    $schema: schema.startsWith('.') ? schema : `./${schema}`,
    $comment: `A users-api-kit target: replace every ${PLACEHOLDER} value. Actors and inactive users you lack can be deleted (their checks are skipped, saying so). The suite changes and deletes the disposable users: give fresh ones every run.`,
    baseUrl: `${PLACEHOLDER}: your users API's base URL, without /api (e.g. https://staging.example.com)`,
    actors: Object.fromEntries(ACTOR_NAMES.map((name) => [name, actor(ACTOR_DESCRIPTIONS[name])])),
    inactive: Object.fromEntries(Object.entries(INACTIVE_DESCRIPTIONS).map(([name, who]) => [name, actor(who)])),
    disposable: Array.from({ length: DISPOSABLE_USERS_NEEDED }, (_, index) => ({
      id: `${PLACEHOLDER}: the id of disposable user ${index + 1}, an ACTIVE CLIENT_VIEWER of the owner's organization`,
      token: `${PLACEHOLDER}: the Bearer token of disposable user ${index + 1}`,
    })),
    // docs/contract.md §6: the suite's receiver; the backend must deliver to it (docs/contract-suite.md).
    webhooks: {
      listen: '0.0.0.0:9999',
      secret: `${PLACEHOLDER}: the whsec_ secret your backend signs its deliveries to http://<this machine>:9999/ with (subscribe that URL in your backend first), or replace this whole object with false if your backend sends no webhooks`,
    },
  }
}
