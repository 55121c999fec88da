import type { FastifyInstance } from 'fastify'
import type { ListQuery, User, UserPage } from '../../../src/domain/user.js'
import type { Member, UserStore } from '../../../src/domain/user-store.js'
import type { EngineRequest, EngineResponse } from '../../../src/engine/engine-request.js'
import type { UsersApiMock } from '../../../src/mock-instance/create-users-api-mock.js'
import type { StateHolder } from '../../../src/mock-instance/state-holder.js'

/** What a broken implementation may tamper with: the app before it is ready, its state, its engine. */
export interface MockInternals {
  app: FastifyInstance
  state: StateHolder
  mock: UsersApiMock
}

/** Wraps the engine: a broken implementation that rewrites requests or answers of the users API. */
export function wrapEngine(
  { mock }: MockInternals,
  wrapper: (
    request: EngineRequest,
    next: (request: EngineRequest) => Promise<EngineResponse>,
  ) => Promise<EngineResponse>,
): void {
  const original = mock.handle
  Object.defineProperty(mock, 'handle', {
    value: (request: EngineRequest) => wrapper(request, original),
    configurable: true,
  })
  // The server writes a read it answered before straight from the mock's cache (mock.reuse): every
  // request must go through the broken wrapper instead.
  Object.defineProperty(mock, 'reuse', { value: () => undefined, configurable: true })
}

/** A request's path, without its query. */
export function pathOf(request: { url: string }): string {
  return request.url.split('?')[0] ?? ''
}

/** Rewrites one query parameter of an engine request. */
export function withQuery(request: EngineRequest, rewrite: (query: URLSearchParams) => void): EngineRequest {
  const [path, search = ''] = request.url.split('?')
  const query = new URLSearchParams(search)
  rewrite(query)
  return { ...request, url: `${path}?${query.toString()}` }
}

/** Rewrites requests of the users API before the engine reads them (a copy: node's own headers stay). */
export function rewriteRequest(internals: MockInternals, rewrite: (request: EngineRequest) => EngineRequest): void {
  wrapEngine(internals, (request, next) => next(rewrite({ ...request, headers: { ...request.headers } })))
}

/**
 * Rewrites the engine's answers. The rewrite gets a copy (the engine hands a cached answer out again) and
 * may change it in place or return another.
 */
export function rewriteResponse(
  internals: MockInternals,
  rewrite: (response: EngineResponse, request: EngineRequest) => EngineResponse | void,
): void {
  wrapEngine(internals, async (request, next) => {
    const original = await next(request)
    const copy = { ...original, headers: { ...original.headers } }
    return rewrite(copy, request) ?? copy
  })
}

/** Rewrites JSON response bodies (a broken serializer, a leaky handler); `response` may be changed too. */
export function rewriteJson(
  internals: MockInternals,
  rewrite: (body: Record<string, unknown>, request: EngineRequest, response: EngineResponse) => unknown,
): void {
  rewriteResponse(internals, (response, request) => {
    if (response.body === undefined || !/json/.test(response.headers['content-type'] ?? '')) return
    const body = JSON.parse(response.body) as Record<string, unknown>
    const rewritten = rewrite(body, request, response)
    response.body = JSON.stringify(rewritten === undefined ? body : rewritten)
  })
}

/** Replaces one method of the current store; `original` is the correct implementation, bound. */
export function wrapStore<K extends keyof UserStore>(
  state: StateHolder,
  method: K,
  wrapper: (original: UserStore[K], store: UserStore) => UserStore[K],
): void {
  const store = state.store
  const original = (store[method] as (...args: unknown[]) => unknown).bind(store) as UserStore[K]
  Object.defineProperty(store, method, { value: wrapper(original, store), configurable: true })
}

/** The caller as another role would be, for permission bypasses. */
export function asRole(caller: User, role: User['role']): User {
  return { ...caller, role }
}

/**
 * Stores a changed copy of a stored user in its place, as a broken update would: the store never changes a
 * user object (they are frozen, and shared with the reset's baseline), so a break replaces it through the
 * store's own maps and member index.
 */
export function storeChanged(store: UserStore, user: User, changes: Partial<User>): User {
  const changed = Object.freeze({ ...user, ...changes })
  const internals = store as unknown as {
    membersById: Map<string, Member>
    tenants: Map<string, { members: { replace(before: User, after: User): void } }>
  }
  internals.tenants.get(user.organizationId)?.members.replace(user, changed)
  const token = internals.membersById.get(user.id)?.token
  internals.membersById.set(user.id, Object.freeze({ user: changed, token }))
  return changed
}

/** A user of any organization, by id (the store only answers within the caller's). */
export function findAnywhere(store: UserStore, id: string): User | undefined {
  return store.tokens().find(({ user }) => user.id === id)?.user
}

/** One page of `users` as the list answers it: what a broken filter re-pages after filtering its own way. */
export function pageOf(users: User[], query: ListQuery): UserPage {
  const data = users.slice((query.page - 1) * query.limit, query.page * query.limit)
  return {
    data,
    meta: {
      page: query.page,
      limit: query.limit,
      total: users.length,
      totalPages: Math.ceil(users.length / query.limit),
    },
  }
}

/** The owner's role, which several rules single out. */
export const OWNER = 'CLIENT_OWNER'

/** Authentication that lets in the tokens of the users `wrongly` picks, whatever their status. */
export function acceptTokensOf(state: MockInternals['state'], wrongly: (user: User) => boolean): void {
  wrapStore(state, 'authenticate', (original, store) => (token) => {
    const entry = store.tokens().find((candidate) => candidate.token === token)
    return entry && wrongly(entry.user) ? entry.user : original(token)
  })
}

/** The user id of a request to /api/users/{id}, decoded; '' when there is none or it cannot be decoded. */
export function idOf(request: { url: string }): string {
  try {
    return decodeURIComponent(pathOf(request).split('/')[3] ?? '')
  } catch {
    return ''
  }
}

/** Calls `seen` with every PATCH body that is a JSON object, before the engine answers it. */
export function wrapEngineBodies(mock: MockInternals['mock'], seen: (patch: Record<string, unknown>) => void): void {
  const original = mock.handle
  Object.defineProperty(mock, 'handle', {
    value: (request: Parameters<typeof original>[0]) => {
      const patch = request.method === 'PATCH' ? parseJsonObject(request.body) : undefined
      if (patch) seen(patch)
      return original(request)
    },
    configurable: true,
  })
}

/** A request body that is a JSON object, else undefined. */
export function parseJsonObject(body: Uint8Array | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(body ?? new Uint8Array()))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** The query of an engine request. */
export function queryOf(request: { url: string }): URLSearchParams {
  return new URLSearchParams(request.url.split('?')[1] ?? '')
}

/** Whether a request addresses an operation of the document that can succeed: the list, or a user by id. */
export function isOperation(request: { method: string; url: string }): boolean {
  const path = pathOf(request)
  if (path === '/api/users') return request.method === 'GET'
  const id = /^\/api\/users\/([^/]+)$/.exec(path)?.[1]
  return id !== undefined && id !== 'me' && ['GET', 'PATCH', 'DELETE'].includes(request.method)
}

/**
 * Answers the problem of `status` to the requests `wrongly` picks, once their token is accepted (a
 * refusal that comes where §3 puts validation, but refuses what the contract allows).
 */
export function refuseWhen(
  internals: MockInternals,
  status: 400 | 413,
  wrongly: (request: Parameters<MockInternals['mock']['handle']>[0]) => boolean,
  part?: 'query' | 'path' | 'body',
  pointer?: string,
): void {
  wrapEngine(internals, async (request, next) => {
    const token = String(request.headers['authorization'] ?? '').replace(/^Bearer +/i, '')
    const known = internals.state.store
      .tokens()
      .some((entry) => entry.token === token && entry.user.status === 'ACTIVE')
    if (!known || !isOperation(request) || !wrongly(request)) return next(request)
    const problem = {
      type: 'about:blank',
      title: status === 400 ? 'Bad Request' : 'Content Too Large',
      status,
      code: status === 400 ? 'VALIDATION_FAILED' : 'PAYLOAD_TOO_LARGE',
      detail: 'Refused.',
      ...(status === 400 ? { errors: [{ in: part ?? 'body', path: pointer ?? '', message: 'is refused' }] } : {}),
    }
    const headers = { 'content-type': 'application/problem+json; charset=utf-8' }
    return { status, headers, body: JSON.stringify(problem) }
  })
}
