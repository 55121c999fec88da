import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'

// npm run e2e -- --base-url URL --target FILE
//
// The service's end-to-end test, as its admin console (a frontend) uses the API: the signed-in user,
// the members page by page, a search box, a role filter, a member's page, renaming and suspending a
// member (from two tabs at once too), and removing one. It signs in with the tokens of a target file
// written by seed:contract, and changes only its last two disposable users. Run it against the
// service, or through `users-api-kit proxy` to have every exchange checked against the contract.

const { values: args } = parseArgs({ options: { 'base-url': { type: 'string' }, target: { type: 'string' } } })
if (!args['base-url'] || !args.target) {
  console.error('Usage: npm run e2e -- --base-url URL --target FILE')
  process.exit(2)
}
const baseUrl = args['base-url'].replace(/\/+$/, '')
const target = JSON.parse(await readFile(args.target, 'utf8')) as {
  actors: { owner: { token: string } }
  disposable: Array<{ id: string; token: string }>
}
const token = target.actors.owner.token

interface User {
  id: string
  name: string
  email: string
  role: string
  status: string
  createdAt: string
  updatedAt: string
}
interface Page {
  data: User[]
  meta: { page: number; limit: number; total: number; totalPages: number }
}

let failures = 0
function check(what: string, holds: boolean, detail = ''): void {
  if (holds) console.log(`  ✓ ${what}`)
  else {
    failures += 1
    console.log(`  ✗ ${what}${detail ? `\n      ${detail}` : ''}`)
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as T }
}

const list = (query: Record<string, string | number>) =>
  call<Page>(
    'GET',
    `/api/users?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
  )

/** Every member, page by page, as the members table scrolls. */
async function everyone(limit: number): Promise<User[]> {
  const users: User[] = []
  for (let page = 1; ; page += 1) {
    const { json } = await list({ page, limit })
    users.push(...json.data)
    if (page >= json.meta.totalPages) return users
  }
}

console.log(`e2e: ${baseUrl}`)

console.log('the signed-in user')
const me = await call<{ data: User }>('GET', '/api/users/me')
check('GET /api/users/me is 200 with the owner', me.status === 200 && me.json.data.role === 'CLIENT_OWNER')

console.log('the members table, page by page')
const first = await list({ page: 1, limit: 7 })
check('page 1 of 7 is 200 and full', first.status === 200 && first.json.data.length === 7)
const paged = await everyone(7)
const whole = (await list({ limit: 100 })).json
check(
  'the pages hold every member once, in the order of the whole list',
  JSON.stringify(paged.map((user) => user.id)) === JSON.stringify(whole.data.map((user) => user.id)),
  `${paged.length} paged, ${whole.data.length} in one page`,
)
check('meta.total counts them', whole.meta.total === paged.length, `total ${whole.meta.total}`)
const past = await list({ page: first.json.meta.totalPages + 1, limit: 7 })
check('a page past the last is empty', past.status === 200 && past.json.data.length === 0)

console.log('the search box: the same members as lower-casing here finds, whatever the script')
for (const term of [
  'straße',
  'STRAẞE',
  'ÅNGSTRÖM',
  'İlkay',
  'ılkay',
  'ΟΔΥΣΣΕΑΣ',
  'σοφία',
  '🚀',
  '100%',
  'snake_',
  '\\',
  'ACME.example',
]) {
  const { status, json } = await list({ search: term, limit: 100 })
  const expected = whole.data
    .filter((user) => `${user.name}\n${user.email}`.toLowerCase().includes(term.toLowerCase()))
    .map((user) => user.id)
  const received = json.data.map((user) => user.id)
  check(
    `search ${JSON.stringify(term)}: ${expected.length} members`,
    status === 200 && JSON.stringify(received) === JSON.stringify(expected),
    `received ${received.length}: ${json.data.map((user) => user.name).join(', ')}`,
  )
}

console.log('the role filter')
const admins = await list({ role: 'CLIENT_ADMIN', limit: 100 })
check(
  'role=CLIENT_ADMIN lists the admins, all of them',
  admins.json.data.every((user) => user.role === 'CLIENT_ADMIN') &&
    admins.json.meta.total === whole.data.filter((user) => user.role === 'CLIENT_ADMIN').length,
)

const [renamed, removed] = target.disposable.slice(-2)
if (!renamed || !removed) throw new Error('the target lists fewer than two disposable users')

console.log("a member's page, renamed and suspended")
const page = await call<{ data: User }>('GET', `/api/users/${renamed.id}`)
check("GET a member's id is 200", page.status === 200 && page.json.data.id === renamed.id)
const rename = await call<{ data: User }>('PATCH', `/api/users/${renamed.id}`, { name: '  Renée Dupont-Łukasik ' })
check('a rename answers the member, trimmed', rename.status === 200 && rename.json.data.name === 'Renée Dupont-Łukasik')
const found = await list({ search: 'RENÉE DUPONT', limit: 100 })
check(
  'the search finds them by the new name',
  found.json.data.some((user) => user.id === renamed.id),
)

console.log('two tabs change one member at once')
let updatedAt = rename.json.data.updatedAt
for (const round of [1, 2, 3]) {
  const name = `Renée ${round}`
  const status = round % 2 === 1 ? 'SUSPENDED' : 'ACTIVE'
  const [byName, byStatus] = await Promise.all([
    call<{ data: User }>('PATCH', `/api/users/${renamed.id}`, { name }),
    call<{ data: User }>('PATCH', `/api/users/${renamed.id}`, { status }),
  ])
  const after = (await call<{ data: User }>('GET', `/api/users/${renamed.id}`)).json.data
  check(
    `round ${round}: both answered 200, and neither change was lost`,
    byName.status === 200 && byStatus.status === 200 && after.name === name && after.status === status,
    `now ${JSON.stringify(after.name)} ${after.status}`,
  )
  const stamps = [byName.json.data.updatedAt, byStatus.json.data.updatedAt].sort()
  check(
    `round ${round}: each change moved updatedAt forward, to two different instants`,
    (stamps[0] ?? '') > updatedAt && stamps[0] !== stamps[1] && after.updatedAt === stamps[1],
    `before ${updatedAt}, answers ${stamps.join(' and ')}, now ${after.updatedAt}`,
  )
  updatedAt = after.updatedAt
}

console.log('a member removed')
const deletion = await call('DELETE', `/api/users/${removed.id}`)
check('DELETE is 204', deletion.status === 204)
check('their page is gone (404)', (await call('GET', `/api/users/${removed.id}`)).status === 404)
const members = await everyone(100)
check('the members table no longer lists them', !members.some((user) => user.id === removed.id))

console.log(failures === 0 ? 'e2e: passed' : `e2e: ${failures} failed`)
process.exit(failures === 0 ? 0 : 1)
