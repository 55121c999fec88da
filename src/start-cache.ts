import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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

export function openStartCache(env: NodeJS.ProcessEnv = process.env): StartCache {
  const directory = env.USERS_API_KIT_CACHE_DIR ?? join(tmpdir(), 'users-api-kit-cache')
  const enabled = env.USERS_API_KIT_CACHE !== 'off'
  const fileOf = (kind: string, inputs: string[]): string => join(directory, `${kind}-${hashOf(inputs)}.json`)
  return {
    async read<T>(kind: string, inputs: string[]): Promise<T | undefined> {
      if (!enabled) return undefined
      try {
        return JSON.parse(await readFile(fileOf(kind, inputs), 'utf8')) as T
      } catch {
        return undefined // Missing or unreadable: compute it again.
      }
    },
    async write(kind: string, inputs: string[], value: unknown): Promise<void> {
      if (!enabled) return
      const file = fileOf(kind, inputs)
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
