import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { User } from '../../src/domain/user.js'
import type { UserStore } from '../../src/domain/user-store.js'
import type { StateHolder } from '../../src/mock/state-holder.js'

/** What a broken implementation may tamper with: the app before it is ready, and its state. */
export interface MockInternals {
  app: FastifyInstance
  state: StateHolder
}

/** Rewrites JSON response bodies (a broken serializer, a leaky handler). */
export function rewriteJson(
  app: FastifyInstance,
  rewrite: (body: Record<string, unknown>, request: FastifyRequest, reply: FastifyReply) => unknown,
): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || !/json/.test(String(reply.getHeader('content-type') ?? ''))) return payload
    const body = JSON.parse(payload) as Record<string, unknown>
    const rewritten = rewrite(body, request, reply)
    return JSON.stringify(rewritten === undefined ? body : rewritten)
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

/** A user of any organization, by id (the store only answers within the caller's). */
export function findAnywhere(store: UserStore, id: string): User | undefined {
  return store.tokens().find(({ user }) => user.id === id)?.user
}
