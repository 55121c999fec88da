import type { User } from '../user.js'

/*
 * List order, CONTRACT §4: `createdAt` ascending, then `id` ascending, both in plain string order
 * (createdAt values are canonical ISO strings, so string order is time order). Neither field ever
 * changes, so a user's place in the list never moves while they are in it.
 */

/** True when `a` comes before `b` in list order. */
export function isBeforeInListOrder(a: User, b: User): boolean {
  return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id)
}

/** A comparator for `Array.prototype.sort` that puts users in list order. */
export function compareInListOrder(a: User, b: User): number {
  if (isBeforeInListOrder(a, b)) return -1
  return isBeforeInListOrder(b, a) ? 1 : 0
}

/**
 * In users sorted in list order, the first position whose user is not before `user`: where they
 * are, or where they would go.
 *
 * @example
 * findListPosition([ada, grace], ada) // 0
 */
export function findListPosition(users: readonly User[], user: User): number {
  let low = 0
  let high = users.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (isBeforeInListOrder(users[middle]!, user)) low = middle + 1
    else high = middle
  }
  return low
}
