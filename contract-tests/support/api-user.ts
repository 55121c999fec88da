import type { ApiUser, PageMeta } from '../../src/contract/rules/api-user.js'
import type { Exchange } from '../../src/contract/client/exchange.js'
import { ACTOR_ROLES } from '../../src/target/target-format.js'
import { expectRule } from './suite.js'

// The shapes and the search rule live in src/contract/, the roles in src/spec/ (the document's), the actors'
// roles with the target's format: the proxy and the mock read them too.
export { holdsTerm, type ApiUser, type PageMeta } from '../../src/contract/rules/api-user.js'
export { ROLES, type Role } from '../../src/spec/roles.js'
export { ACTOR_ROLES } from '../../src/target/target-format.js'

export type MemberName = keyof typeof ACTOR_ROLES
export const MEMBER_NAMES = Object.keys(ACTOR_ROLES) as MemberName[]

/** The user of a `{ "data": User }` answer; a bug report when there is none. */
export function userOf(exchange: Exchange): ApiUser {
  const data = (exchange.response.body as { data?: unknown } | undefined)?.data
  const isUser = typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'string'
  expectRule(
    exchange,
    isUser,
    'A user is answered as { "data": User } (docs/contract.md §4)',
    'Received: no user under "data"',
  )
  return data as ApiUser
}

/**
 * The users of a list answer: `data` of the envelope. A bare array is read too, so that checks of the
 * core layer (which does not include the envelope of the list) can still read the users.
 */
export function itemsOf(exchange: Exchange): ApiUser[] {
  const body = exchange.response.body
  const data = Array.isArray(body) ? body : (body as { data?: unknown } | undefined)?.data
  expectRule(
    exchange,
    Array.isArray(data),
    'A list answers its users in "data" (docs/contract.md §4)',
    'Received: no array',
  )
  return data as ApiUser[]
}

/** `meta` of a list answer; a bug report when it is missing. */
export function metaOf(exchange: Exchange): PageMeta {
  const meta = (exchange.response.body as { meta?: unknown } | undefined)?.meta
  const holds = typeof meta === 'object' && meta !== null
  expectRule(
    exchange,
    holds,
    'A list answers { "data": [...], "meta": {...} } (docs/contract.md §4)',
    'Received: no "meta"',
  )
  return meta as PageMeta
}
