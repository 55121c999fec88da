import type { ApiUser } from '../contract/rules/api-user.js'
import { dataOf, succeeded, type ObservedExchange } from './observed-exchange.js'

/** A user as an answer showed it: an id at least; the schema check reports whatever else is missing. */
export type SeenUser = Partial<ApiUser> & { id: string }

/**
 * The users a 2xx answer shows: the one of `{ "data": User }`, or each of a list's `data`. Anything
 * without a string id is left out (body-matches-schema reports it).
 *
 * @example
 * usersInAnswer(observedGetOfAda) // [{ id: 'usr_…', name: 'Ada', … }]
 */
export function usersInAnswer(observed: ObservedExchange): SeenUser[] {
  if (!succeeded(observed)) return []
  const data = dataOf(observed)
  const items = Array.isArray(data) ? data : [data]
  return items.filter(isSeenUser)
}

/** The users of a list answer, or undefined when the answer is not a list. */
export function listItemsOf(observed: ObservedExchange): SeenUser[] | undefined {
  const data = dataOf(observed)
  return Array.isArray(data) ? data.filter(isSeenUser) : undefined
}

function isSeenUser(value: unknown): value is SeenUser {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
}
