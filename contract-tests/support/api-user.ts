import type { Exchange } from '../../src/contract/exchange.js'
import { expectRule } from './suite.js'

/** A user as the API answers it (CONTRACT §1); more fields may come and are ignored. */
export interface ApiUser {
  id: string
  email: string
  name: string
  role: Role
  organizationId: string
  status: string
  createdAt: string
  updatedAt: string
}

export const ROLES = ['CLIENT_OWNER', 'CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER'] as const
export type Role = (typeof ROLES)[number]

/** The role each actor of a target has (src/contract/target.ts). */
export const ACTOR_ROLES = {
  owner: 'CLIENT_OWNER',
  admin: 'CLIENT_ADMIN',
  viewer: 'CLIENT_VIEWER',
  bot: 'BOT_USER',
} as const satisfies Record<string, Role>

export type MemberName = keyof typeof ACTOR_ROLES
export const MEMBER_NAMES = Object.keys(ACTOR_ROLES) as MemberName[]

/** `meta` of a list (docs/contract.md §4). */
export interface PageMeta {
  page: number
  limit: number
  total: number
  totalPages: number
}

/** The user of a `{ "data": User }` answer; a bug report when there is none. */
/** CONTRACT §4: whether a search term is in the user's name or email, both sides lower-cased. */
export function holdsTerm(user: ApiUser, term: string): boolean {
  const needle = term.toLowerCase()
  return user.name.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle)
}

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
