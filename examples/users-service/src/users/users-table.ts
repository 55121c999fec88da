import type { Queryable } from '../database/database.js'
import type { Role } from './permissions.js'

export type Status = 'ACTIVE' | 'INVITED' | 'SUSPENDED'

/** A user as the API answers it (docs/contract.md §1). */
export interface User {
  id: string
  email: string
  name: string
  role: Role
  organizationId: string
  status: Status
  createdAt: string
  updatedAt: string
}

// RFC 3339 in UTC with milliseconds, written by the database: the columns hold milliseconds, so this
// is exactly what is stored (a driver's Date would also do, but PGlite and pg parse timestamps apart).
const RFC3339 = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`
const USER_COLUMNS = `id, email, name, role, organization_id AS "organizationId", status,
  to_char(created_at AT TIME ZONE 'UTC', ${RFC3339}) AS "createdAt",
  to_char(updated_at AT TIME ZONE 'UTC', ${RFC3339}) AS "updatedAt"`

/** The user behind a token's hash, of any status; undefined for a token nobody holds. */
export async function findTokenHolder(db: Queryable, tokenHash: Buffer): Promise<User | undefined> {
  const rows = await db.query<User>(
    `SELECT ${USER_COLUMNS} FROM users WHERE id = (SELECT user_id FROM api_tokens WHERE token_hash = $1)`,
    [tokenHash],
  )
  return rows[0]
}

/** A user of the organization, locked FOR UPDATE when asked (in a transaction). */
export async function findMember(
  db: Queryable,
  organizationId: string,
  id: string,
  { lock }: { lock: boolean } = { lock: false },
): Promise<User | undefined> {
  const rows = await db.query<User>(
    `SELECT ${USER_COLUMNS} FROM users WHERE id = $1 AND organization_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, organizationId],
  )
  return rows[0]
}

export interface ListQuery {
  organizationId: string
  role?: Role
  search?: string
  limit: number
  /** (page − 1) × limit, as a decimal string: pages go up to 2^53 − 1, past what a double holds exactly. */
  offset: string
}

/**
 * One page of an organization's users and the count of all that match, from one statement (one
 * snapshot: the total and the page agree). The database filters, folds case, orders and counts:
 * - order: createdAt, then id by code point (COLLATE "C"), whatever the database's own collation;
 * - search: both sides lower-cased by ICU's root locale, which maps every script as JavaScript's
 *   toLowerCase does (a database's own lower() follows its locale: under C it lower-cases ASCII only);
 *   the term's %, _ and \ escaped, so that LIKE takes them as themselves.
 */
export async function listMembers(db: Queryable, query: ListQuery): Promise<{ users: User[]; total: number }> {
  const rows = await db.query<User & { total: number }>(
    `WITH matching AS (
       SELECT * FROM users
       WHERE organization_id = $1
         AND ($2::text IS NULL OR role = $2::text)
         AND ($3::text IS NULL
              OR lower(name COLLATE "und-x-icu") LIKE lower($3::text COLLATE "und-x-icu") ESCAPE '\\'
              OR lower(email COLLATE "und-x-icu") LIKE lower($3::text COLLATE "und-x-icu") ESCAPE '\\')
     )
     SELECT (SELECT count(*)::int FROM matching) AS total, page.*
     FROM (SELECT 1) AS one
     LEFT JOIN LATERAL (
       SELECT ${USER_COLUMNS} FROM matching
       ORDER BY created_at, id COLLATE "C"
       LIMIT $4 OFFSET $5::bigint
     ) AS page ON true`,
    [query.organizationId, query.role ?? null, likePattern(query.search), query.limit, query.offset],
  )
  const total = rows[0]?.total ?? 0
  const users = rows.filter((row) => row.id !== null).map(({ total: _total, ...user }) => user)
  return { users, total }
}

/** `%term%` for LIKE, lower-cased as the columns are, with LIKE's own characters escaped. */
function likePattern(search: string | undefined): string | null {
  if (search === undefined || search === '') return null
  // Lower-cased in SQL, with the columns (see listMembers). The backslashes added here are no letters: the
  // context of a final sigma does not change.
  return `%${search.replace(/[\\%_]/g, '\\$&')}%`
}

/** Sets the given fields and moves updated_at strictly forward, even within one millisecond. */
export async function updateMember(
  tx: Queryable,
  id: string,
  fields: { name: string; role: Role; status: Status },
): Promise<User> {
  const rows = await tx.query<User>(
    `UPDATE users
     SET name = $2, role = $3, status = $4,
         updated_at = greatest(clock_timestamp(), updated_at + interval '1 millisecond')
     WHERE id = $1
     RETURNING ${USER_COLUMNS}`,
    [id, fields.name, fields.role, fields.status],
  )
  return rows[0] as User
}

export async function deleteMember(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM users WHERE id = $1', [id])
}
