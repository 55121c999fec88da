import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * What the mock computes at start from its inputs alone (the validated, dereferenced document; the
 * seeded state), remembered on disk by a hash of those inputs. Parsing YAML, validating against the
 * OpenAPI schema, compiling the state schema and running faker are most of a cold start; a start with
 * the same inputs reads one JSON file instead. `USERS_API_KIT_CACHE=off` turns it off;
 * `USERS_API_KIT_CACHE_DIR` moves it (default: the OS's temporary folder).
 */
export interface StartCache {
  read<T>(kind: string, inputs: string[]): Promise<T | undefined>
  write(kind: string, inputs: string[], value: unknown): Promise<void>
}

/**
 * Filled at build time (scripts/fill-start-cache.ts) for the default document and seed, and read
 * after the user's own folder: even a first `npm start` on a fresh machine starts from it.
 */
export const PREBUILT_CACHE_DIR = fileURLToPath(new URL('../dist/start-cache', import.meta.url))

export function openStartCache(env: NodeJS.ProcessEnv = process.env): StartCache {
  const directory = env.USERS_API_KIT_CACHE_DIR ?? join(tmpdir(), 'users-api-kit-cache')
  const enabled = env.USERS_API_KIT_CACHE !== 'off'
  const fileOf = (folder: string, kind: string, inputs: string[]): string =>
    join(folder, `${kind}-${hashOf(inputs)}.json`)
  return {
    async read<T>(kind: string, inputs: string[]): Promise<T | undefined> {
      if (!enabled) return undefined
      for (const folder of [directory, PREBUILT_CACHE_DIR]) {
        try {
          return JSON.parse(await readFile(fileOf(folder, kind, inputs), 'utf8')) as T
        } catch {
          // Missing or unreadable: try the next folder, then compute it again.
        }
      }
      return undefined
    },
    async write(kind: string, inputs: string[], value: unknown): Promise<void> {
      if (!enabled) return
      const file = fileOf(directory, kind, inputs)
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
      try {
        await mkdir(directory, { recursive: true })
        // Written aside, then renamed: a concurrent start never reads half a file.
        await writeFile(temporary, JSON.stringify(value))
        await rename(temporary, file)
      } catch {
        // A read-only or full disk only costs the next start the computation.
      }
    },
  }
}

function hashOf(inputs: string[]): string {
  const hash = createHash('sha256')
  for (const input of inputs) hash.update(`${input.length}:${input}`)
  return hash.digest('hex').slice(0, 32)
}
