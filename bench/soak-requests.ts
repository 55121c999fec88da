import type { DisposablePool } from './disposable-pool.js'

/** One request of the soak and the one status the contract allows for it. */
export interface PlannedRequest {
  kind: string
  method: 'GET' | 'PATCH' | 'DELETE'
  path: string
  headers: Record<string, string>
  body?: string
  expected: number
  /** Whether the planned kind could not run (no disposable user free) and this request stands in. */
  fallback?: boolean
  /** Called with the status once answered: hands a leased user back to the pool. */
  settle?: (status: number) => void
}

/** What the requests refer to, found on the mock before the traffic starts. */
export interface SoakWorld {
  pool: DisposablePool
  /** Seeded users of the owner's organization (the soak never changes them). */
  memberIds: string[]
  /** A user of another organization: 404 for the owner (CONTRACT §3). */
  foreignId: string
}

const OWNER = { authorization: 'Bearer owner-token' }
const JSON_BODY = { ...OWNER, 'content-type': 'application/json' }
const ROLES = ['CLIENT_OWNER', 'CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER']
const SEARCHES = ['an', 'ACME', 'olivia', 'zzz', 'e', '']
const ACTIVE_TOKENS = ['owner-token', 'admin-token', 'viewer-token', 'bot-token']
const BAD_AUTHORIZATIONS: Array<Record<string, string>> = [
  { authorization: 'Bearer not-a-token' },
  { authorization: 'Basic b3duZXI6dG9rZW4=' },
  {},
  { authorization: 'Bearer suspended-token' },
]
const BAD_QUERIES = ['limit=0', 'limit=101', 'page=0', 'page=abc', 'role=client_viewer', `search=${'x'.repeat(101)}`]
const BAD_BODIES = ['{"nickname":"x"}', '{}', 'not json', '{"role":"CLIENT_KING"}', '[]', '{"status":"INVITED"}']

type Planner = (world: SoakWorld, turn: number) => PlannedRequest

const me: Planner = (_world, turn) => ({
  kind: 'GET /api/users/me',
  method: 'GET',
  path: '/api/users/me',
  headers: { authorization: `Bearer ${pick(ACTIVE_TOKENS, turn)}` },
  expected: 200,
})

const renameDisposable: Planner = (world, turn) => {
  const user = world.pool.lease()
  if (!user) return { ...me(world, turn), fallback: true }
  user.renames++
  return {
    kind: 'PATCH name of a disposable user',
    method: 'PATCH',
    path: `/api/users/${user.id}`,
    headers: JSON_BODY,
    // Back and forth: each rename changes the name, so the store re-indexes the user every time.
    body: JSON.stringify({ name: user.renames % 2 === 1 ? 'Soak Alpha' : 'Soak Beta' }),
    expected: 200,
    settle: (status) => status === 200 && world.pool.release(user),
  }
}

const deleteDisposable: Planner = (world, turn) => {
  const user = world.pool.lease()
  if (!user) return { ...me(world, turn), fallback: true }
  return {
    kind: 'DELETE a disposable user',
    method: 'DELETE',
    path: `/api/users/${user.id}`,
    headers: OWNER,
    expected: 204,
    settle: (status) => status === 204 && world.pool.markDeleted(user),
  }
}

/** The request kinds, each planned afresh for every request it sends. */
export const PLANNERS = {
  list: (_world, turn) => ({
    kind: 'GET /api/users?page=…',
    method: 'GET',
    path: `/api/users?page=${1 + (turn % 4)}&limit=20`,
    headers: OWNER,
    expected: 200,
  }),
  listByRole: (_world, turn) => ({
    kind: 'GET /api/users?role=…',
    method: 'GET',
    path: `/api/users?role=${pick(ROLES, turn)}&limit=10&page=${1 + (Math.floor(turn / ROLES.length) % 2)}`,
    headers: OWNER,
    expected: 200,
  }),
  search: (_world, turn) => ({
    kind: 'GET /api/users?search=…',
    method: 'GET',
    path: `/api/users?search=${pick(SEARCHES, turn)}&limit=20`,
    headers: OWNER,
    expected: 200,
  }),
  get: (world, turn) => ({
    kind: 'GET /api/users/:id',
    method: 'GET',
    path: `/api/users/${pick(world.memberIds, turn)}`,
    headers: OWNER,
    expected: 200,
  }),
  me,
  rename: renameDisposable,
  delete: deleteDisposable,
  deleteAgain: (world) => {
    // CONTRACT §4: after a delete, DELETE of that id is 404. Until the first delete, an id never issued.
    const id = world.pool.takeDeleted()
    return {
      kind: 'DELETE again a deleted user',
      method: 'DELETE',
      path: `/api/users/${id ?? 'usr_neverissuedqqqqqqqqq'}`,
      headers: OWNER,
      expected: 404,
      ...(id === undefined ? { fallback: true } : {}),
    }
  },
  badToken: (_world, turn) => ({
    kind: 'bad or missing token',
    method: 'GET',
    path: '/api/users/me',
    headers: pick(BAD_AUTHORIZATIONS, turn),
    expected: 401,
  }),
  badQuery: (_world, turn) => ({
    kind: 'bad list query',
    method: 'GET',
    path: `/api/users?${pick(BAD_QUERIES, turn)}`,
    headers: OWNER,
    expected: 400,
  }),
  unknownId: (world, turn) => ({
    kind: 'GET an unknown or foreign id',
    method: 'GET',
    path: `/api/users/${turn % 2 === 0 ? 'usr_doesnotexistqqqqqqq' : world.foreignId}`,
    headers: OWNER,
    expected: 404,
  }),
  badBody: (world, turn) => ({
    kind: 'PATCH with a bad body',
    method: 'PATCH',
    path: `/api/users/${pick(world.memberIds, turn)}`,
    headers: JSON_BODY,
    body: pick(BAD_BODIES, turn),
    expected: 400,
  }),
  wrongContentType: (world, turn) => ({
    kind: 'PATCH as text/plain',
    method: 'PATCH',
    path: `/api/users/${pick(world.memberIds, turn)}`,
    headers: { ...OWNER, 'content-type': 'text/plain' },
    body: '{"name":"Soak"}',
    expected: 415,
  }),
} satisfies Record<string, Planner>

/**
 * What each connection sends, over and over: mostly reads, four renames and a delete of disposable
 * users, a repeated delete, and one bad request of each kind.
 */
export const CYCLE: Array<keyof typeof PLANNERS> = [
  'list',
  'me',
  'get',
  'search',
  'rename',
  'listByRole',
  'me',
  'get',
  'rename',
  'badToken',
  'search',
  'rename',
  'delete',
  'badQuery',
  'get',
  'rename',
  'deleteAgain',
  'unknownId',
  'badBody',
  'wrongContentType',
]

function pick<T>(values: T[], turn: number): T {
  return values[turn % values.length]!
}
