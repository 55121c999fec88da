import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Database } from './database.js'

const MIGRATIONS = fileURLToPath(new URL('../../migrations/', import.meta.url))

/**
 * Applies the files of migrations/ not applied yet, in name order, each in a transaction of its own.
 * An advisory lock keeps two instances starting at once from applying the same file twice.
 *
 * @example
 * const applied = await migrate(db) // ['0001_users.sql', …] the first time, [] after
 */
export async function migrate(db: Database): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`)
  const files = (await readdir(MIGRATIONS)).filter((name) => name.endsWith('.sql')).sort()
  const applied: string[] = []
  for (const name of files) {
    const sql = await readFile(MIGRATIONS + name, 'utf8')
    const done = await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('users-service migrations'))`)
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name])
      if (seen.length > 0) return false
      await tx.exec(sql)
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name])
      return true
    })
    if (done) applied.push(name)
  }
  return applied
}
