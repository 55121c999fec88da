import type { Target } from '../../src/contract/target/target.js'

/** One request of the scripted client and the status it got. */
export interface TrafficStep {
  what: string
  method: string
  path: string
  status: number
  /** The answer's body as the client read it (fetch decompresses). */
  body: string
}

interface Send {
  method?: string
  token?: string | null
  json?: unknown
  body?: string
  contentType?: string
}

/** The disposable users the script changes and deletes: four, each with its own token. */
export const DISPOSABLE_USERS_NEEDED = 4

/**
 * A client as an app and a QA session would drive the users API, sent through the proxy: every actor
 * reads itself, lists are paged through and filtered, users read by id, renamed (trimmed, then the same
 * name again), promoted, suspended and deleted, and every kind of request the contract refuses is sent
 * once (the client's own mistakes). It exercises each rule the proxy judges, so that a backend broken on
 * any of them shows it; against a correct backend, none fires. Uses the target's disposable users only
 * for writes; the actors are read, and sent only writes a correct backend refuses.
 *
 * @example
 * const steps = await runScriptedTraffic(proxy.url, mock.target)
 */
export async function runScriptedTraffic(baseUrl: string, target: Target): Promise<TrafficStep[]> {
  const steps: TrafficStep[] = []
  const token = (name: 'owner' | 'admin' | 'viewer' | 'bot' | 'outsider'): string =>
    target.actors[name]?.token ?? `no-${name}`
  const [first, second, third, fourth] = target.disposable
  if (!first || !second || !third || !fourth)
    throw new Error(`The script needs ${DISPOSABLE_USERS_NEEDED} disposable users.`)
  const send = async (what: string, path: string, options: Send = {}): Promise<{ status: number; body: unknown }> => {
    const method = options.method ?? 'GET'
    const headers: Record<string, string> = {}
    if (options.token !== null) headers.authorization = `Bearer ${options.token ?? token('owner')}`
    let body = options.body
    if (options.json !== undefined) body = JSON.stringify(options.json)
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json'
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' })
    const text = await response.text()
    steps.push({ what, method, path, status: response.status, body: text })
    return {
      status: response.status,
      body: /json/.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : undefined,
    }
  }
  const user = (id: string): string => `/api/users/${encodeURIComponent(id)}`
  const patch = (what: string, id: string, json: unknown, as?: string): Promise<{ status: number; body: unknown }> =>
    send(what, user(id), { method: 'PATCH', json, token: as ?? token('owner') })

  // Who is who: every caller's /me, the disposable users' too.
  for (const name of ['owner', 'admin', 'viewer', 'bot', 'outsider'] as const)
    await send(`${name} reads /me`, '/api/users/me', { token: token(name) })
  for (const [index, disposable] of target.disposable.slice(0, 4).entries())
    await send(`disposable ${index} reads /me`, '/api/users/me', { token: disposable.token })
  const outsider = (await send('outsider reads /me again', '/api/users/me', { token: token('outsider') })).body as {
    data?: { id?: string }
  }

  // Lists: paged through, filtered, past the end; by every role.
  for (const page of [1, 2, 3]) await send(`owner reads page ${page} by 2`, `/api/users?limit=2&page=${page}`)
  for (const page of [1, 2]) await send(`owner reads page ${page} by 7`, `/api/users?limit=7&page=${page}`)
  const everyone = (await send('owner reads 100', '/api/users?limit=100')).body as {
    data?: Array<{ id: string; status: string }>
  }
  await send('owner reads past the end', '/api/users?page=999')
  await send('owner lists viewers', '/api/users?role=CLIENT_VIEWER&limit=3')
  await send('owner searches a', '/api/users?search=a&limit=5')
  await send('owner searches %', '/api/users?search=%25')
  await send('viewer lists', '/api/users', { token: token('viewer') })
  await send('bot lists (403)', '/api/users', { token: token('bot') })
  // HEAD: the answers of GET without their bodies, which nothing judges as if they had one.
  await send('owner HEADs a page', '/api/users?limit=2&page=2', { method: 'HEAD' })
  await send('owner HEADs /me', '/api/users/me', { method: 'HEAD' })
  await send('bot HEADs the list (403)', '/api/users', { method: 'HEAD', token: token('bot') })

  // The client's own mistakes in the query: each one a 400.
  for (const query of ['limit=0', 'limit=500', 'page=abc', 'role=client_viewer', 'page=1&page=2', 'limit=abc'])
    await send(`owner lists with ${query} (400)`, `/api/users?${query}`)

  // Reads by id: allowed, refused, of another organization, of nobody.
  await send('owner reads a disposable user', user(first.id))
  const bot = (await send('bot reads /me', '/api/users/me', { token: token('bot') })).body as { data?: { id?: string } }
  if (bot.data?.id) await send('bot reads itself by id', user(bot.data.id), { token: token('bot') })
  await send('bot reads another user (403)', user(first.id), { token: token('bot') })
  if (outsider.data?.id) await send("owner reads the outsider's id (404)", user(outsider.data.id))
  await send('owner reads an id of nobody (404)', '/api/users/nobody-has-this-id')

  // PATCH: a trimmed rename, the same name again (a no-op), the user renaming themselves.
  await patch('owner renames with white space', first.id, { name: '  Proxy Rename  ' })
  await patch('owner renames to the same name', first.id, { name: 'Proxy Rename' })
  await patch('a disposable user renames themselves', first.id, { name: 'Proxy Self' }, first.token)
  await patch('viewer renames another user (403)', second.id, { name: 'Viewer Was Here' }, token('viewer'))
  await patch('admin makes someone an owner (403)', second.id, { role: 'CLIENT_OWNER' }, token('admin'))
  await patch('owner makes a disposable user an owner', second.id, { role: 'CLIENT_OWNER' })
  await patch('admin renames an owner (403)', second.id, { name: 'Admin Was Here' }, token('admin'))
  await patch('owner makes them a viewer again', second.id, { role: 'CLIENT_VIEWER' })
  await patch('a user sets their own role (403)', first.id, { role: 'CLIENT_ADMIN' }, first.token)
  await patch('an unknown key besides a name (400)', first.id, { name: 'Proxy Key', nickname: 'nick' })
  await patch('a valid name and an invalid role (400)', first.id, { name: 'Proxy Half', role: 'KING' })
  await send('owner reads the user after the 400', user(first.id))
  await send('a body that is not JSON as text/plain (415)', user(first.id), {
    method: 'PATCH',
    body: '{"name":"Plain"}',
    contentType: 'text/plain',
  })
  await send('a body over 16 KiB (413)', user(first.id), { method: 'PATCH', json: { name: 'x'.repeat(17_000) } })
  await send('PATCH /api/users/me (405)', '/api/users/me', { method: 'PATCH', json: { name: 'Me' } })
  const invited = everyone.data?.find((candidate) => candidate.status === 'INVITED')
  if (invited) await patch('an INVITED user set to INVITED (400)', invited.id, { status: 'INVITED' })

  // Suspension: the token is refused, then accepted again.
  await patch('owner suspends a disposable user', third.id, { status: 'SUSPENDED' })
  await send('the suspended user reads /me (401)', '/api/users/me', { token: third.token })
  await patch('owner activates them again', third.id, { status: 'ACTIVE' })
  await send('the active user reads /me again', '/api/users/me', { token: third.token })

  // Routes and authentication.
  await send('no token (401)', '/api/users/me', { token: null })
  await send('no token on an unknown route (401)', '/api/nothing', { token: null })
  await send('an unknown token (401)', '/api/users/me', { token: 'no-such-token' })
  await send('an unknown route (404)', '/api/nothing')
  await send('POST /api/users (405)', '/api/users', { method: 'POST', json: { name: 'New' } })

  // DELETE: refused, then done; the user is gone from then on.
  await send('viewer deletes a user (403)', user(fourth.id), { method: 'DELETE', token: token('viewer') })
  await send('a user deletes themselves (403)', user(fourth.id), { method: 'DELETE', token: fourth.token })
  await send('owner deletes a disposable user', user(fourth.id), { method: 'DELETE' })
  await send('owner reads the deleted user (404)', user(fourth.id))
  await send('owner lists after the deletion', '/api/users?limit=100')
  await send('the deleted user reads /me (401)', '/api/users/me', { token: fourth.token })
  await send('owner deletes them again (404)', user(fourth.id), { method: 'DELETE' })
  return steps
}
