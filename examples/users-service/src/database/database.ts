import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'

/** What the service's SQL runs on: a connection, or one transaction of it. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>
  /** Several statements separated by semicolons, no parameters (a migration file). */
  exec(sql: string): Promise<void>
}

export interface Database extends Queryable {
  /** `work` inside BEGIN … COMMIT; any error rolls it back and is thrown again. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
  /** For the start-up line: which PostgreSQL this is. */
  describe(): string
}

/**
 * A PostgreSQL server when `databaseUrl` is given (`postgres://user@host:5432/db`), else PGlite, a
 * PostgreSQL compiled to WebAssembly running in this process: in memory, or in `pgliteDir` when given.
 *
 * @example
 * const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL })
 * const rows = await db.query<{ n: number }>('SELECT 1 AS n')
 */
export async function openDatabase(options: { databaseUrl?: string; pgliteDir?: string }): Promise<Database> {
  return options.databaseUrl ? openServer(options.databaseUrl) : openPglite(options.pgliteDir)
}

function openServer(connectionString: string): Database {
  const pool = new pg.Pool({ connectionString, max: 10 })
  // An idle client whose server went away emits 'error'; without a listener it would end the process.
  pool.on('error', (error) => console.error(`users-service: idle database connection lost: ${error.message}`))
  const query = async <Row>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as Row[]
  return {
    query,
    // Without parameters, pg sends the simple query protocol, which takes several statements.
    exec: async (sql) => void (await pool.query(sql)),
    async transaction(work) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await work({
          query: async (sql, params) => (await client.query(sql, params)).rows,
          exec: async (sql) => void (await client.query(sql)),
        })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
    describe: () => `PostgreSQL at ${redact(connectionString)}`,
  }
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const db = await PGlite.create(dataDir ? { dataDir } : {})
  return {
    query: async (sql, params) => (await db.query(sql, params)).rows as never,
    exec: async (sql) => void (await db.exec(sql)),
    // PGlite runs one statement at a time; its transaction() holds the database until the work ends,
    // so concurrent requests queue as they would on a server's row locks.
    transaction: (work) =>
      db.transaction((tx) =>
        work({
          query: async (sql, params) => (await tx.query(sql, params)).rows as never,
          exec: async (sql) => void (await tx.exec(sql)),
        }),
      ),
    close: () => db.close(),
    describe: () => `PGlite (PostgreSQL in WebAssembly), ${dataDir ? `data in ${dataDir}` : 'in memory'}`,
  }
}

/** The URL without its password, for logs. */
function redact(connectionString: string): string {
  try {
    const url = new URL(connectionString)
    if (url.password) url.password = '***'
    return url.toString()
  } catch {
    return 'DATABASE_URL'
  }
}
