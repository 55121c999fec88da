/**
 * Writes schemas/mock-state.schema.json, the published schema of fixture files and of
 * GET/PUT /__mock/state, from the User schema of openapi/users.yaml. Run it after changing the document:
 *
 *   npx tsx scripts/write-state-schema.ts
 *
 * test/domain/state-validation.test.ts fails while the checked-in file differs from what this writes.
 */
import { writeFile } from 'node:fs/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { loadSpec } from '../src/spec/load-spec.js'
import { buildStateSchema } from '../src/spec/state-schema.js'

export const STATE_SCHEMA_PATH = fileURLToPath(new URL('../schemas/mock-state.schema.json', import.meta.url))

/** The file's content. Plain `JSON.stringify`: .prettierignore leaves the generated file alone. */
export async function renderStateSchemaFile(): Promise<string> {
  const { dereferenced } = await loadSpec()
  return `${JSON.stringify(buildStateSchema(dereferenced), null, 2)}\n`
}

async function writeStateSchemaFile(): Promise<void> {
  await writeFile(STATE_SCHEMA_PATH, await renderStateSchemaFile())
  console.log(`Wrote ${STATE_SCHEMA_PATH}`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await writeStateSchemaFile()
