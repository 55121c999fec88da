import type { Exchange } from '../../src/contract/client/exchange.js'
import { itemsOf, metaOf, userOf, type ApiUser, type PageMeta } from './api-user.js'
import { expectStatus, send, type Sender } from './suite.js'
import { listPath, userPath } from './user-paths.js'

/** The caller, read through GET /api/users/me (CONTRACT §4, core). */
export async function readMe(as: Sender): Promise<ApiUser> {
  const exchange = await send({ as, path: '/api/users/me' })
  expectStatus(exchange, 200, 'Every active user may read themselves: GET /api/users/me is 200 (docs/contract.md §3)')
  return userOf(exchange)
}

/** A user read by id. */
export async function readUser(as: Sender, id: string): Promise<ApiUser> {
  const exchange = await send({ as, path: userPath(id) })
  expectStatus(exchange, 200, 'A member of the caller organization can be read by id (docs/contract.md §4)')
  return userOf(exchange)
}

/** One page of the list. */
export interface UserPage {
  exchange: Exchange
  items: ApiUser[]
  meta: PageMeta
}

export type ListQuery = Record<string, string | number | undefined>

/**
 * The users of one page of GET /api/users, expected to be a 200, without reading `meta`: what checks
 * of the core layer use (the list's envelope and meta are profile).
 */
export async function listItems(as: Sender, query: ListQuery = {}): Promise<{ exchange: Exchange; items: ApiUser[] }> {
  const exchange = await send({ as, path: listPath(query) })
  expectStatus(exchange, 200, 'A valid list query is answered 200 (docs/contract.md §4)')
  return { exchange, items: itemsOf(exchange) }
}

/** One page of GET /api/users, expected to be a 200. */
export async function listUsers(as: Sender, query: ListQuery = {}): Promise<UserPage> {
  const exchange = await send({ as, path: listPath(query) })
  expectStatus(exchange, 200, 'A valid list query is answered 200 (docs/contract.md §4)')
  return { exchange, items: itemsOf(exchange), meta: metaOf(exchange) }
}

/**
 * The pages of a list from the first, at most `maxPages` of them, stopping at the last one. Every
 * page's `meta.total` is kept, so that callers can tell whether the list changed during the walk
 * (other test files delete their disposable users meanwhile).
 */
export async function walkUsers(as: Sender, query: ListQuery, maxPages: number): Promise<UserPage[]> {
  const pages: UserPage[] = []
  for (let page = 1; page <= maxPages; page += 1) {
    const answer = await listUsers(as, { ...query, page })
    pages.push(answer)
    if (page >= answer.meta.totalPages || answer.items.length === 0) break
  }
  return pages
}

/** Whether every page of a walk saw the same total: no user came or went meanwhile. */
export function isSteadyWalk(pages: UserPage[]): boolean {
  return pages.every((page) => page.meta.total === pages[0]?.meta.total)
}

/** The first user of the caller's organization that matches, walking the owner's list; stops early. */
export async function findUser(
  predicate: (user: ApiUser) => boolean,
  query: ListQuery = {},
  maxPages = 20,
): Promise<ApiUser | undefined> {
  for (let page = 1; page <= maxPages; page += 1) {
    const answer = await listUsers('owner', { ...query, limit: 100, page })
    const found = answer.items.find(predicate)
    if (found) return found
    if (page >= answer.meta.totalPages || answer.items.length === 0) return undefined
  }
  return undefined
}
