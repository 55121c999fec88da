import type { TestContext } from 'vitest'
import type { DisposableUser } from '../../src/contract/target/target.js'
import type { ApiUser } from './api-user.js'
import { readDisposable } from './disposable-user.js'
import { needActor, needDisposable, needWrites, send, undoAfter, type DISPOSABLE_SLOTS } from './suite.js'
import { userPath } from './user-paths.js'

/**
 * Reads a disposable user as they see themselves (GET /api/users/me, core; the check is skipped when
 * an earlier run used them up) and has the owner put back their name, role and status when the check
 * ends, whatever it changed. A user a broken backend deleted meanwhile (404) cannot be put back.
 */
export async function restoreAfter(context: TestContext, user: DisposableUser): Promise<ApiUser> {
  const before = await readDisposable(context, user)
  undoAfter(async () => {
    const { name, role, status } = before
    const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json: { name, role, status } })
    if (exchange.response.status !== 200 && exchange.response.status !== 404) {
      throw new Error(`Could not restore the disposable user ${user.id}: PATCH answered ${exchange.response.status}.`)
    }
  }, context)
  return before
}

/**
 * What a check that changes a disposable user needs first: writes allowed, the owner, the slot's user,
 * and (unless `restore` is false: a deletion) the owner putting them back afterwards.
 */
export async function prepareDisposable(
  context: TestContext,
  slot: keyof typeof DISPOSABLE_SLOTS,
  restore = true,
): Promise<DisposableUser> {
  needWrites(context)
  needActor(context, 'owner')
  const user = needDisposable(context, slot)
  if (restore) await restoreAfter(context, user)
  return user
}
