import type { TestContext } from 'vitest'
import type { DisposableUser } from '../../src/contract/target/target.js'
import { userOf, type ApiUser } from './api-user.js'
import { expectStatus, send } from './suite.js'

/**
 * A disposable user as they see themselves (GET /api/users/me, core), or nothing when their token is
 * refused: a previous run deleted them (delete-user's slots) or left them suspended.
 */
export async function probeDisposable(user: DisposableUser): Promise<ApiUser | undefined> {
  const exchange = await send({ as: user, path: '/api/users/me' })
  if (exchange.response.status === 401) return undefined
  expectStatus(exchange, 200, 'A disposable user is ACTIVE: GET /api/users/me is 200 (docs/contract.md §2)')
  return userOf(exchange)
}

/** Why a check skips when its disposable user no longer answers. */
export function goneReason(): string {
  return 'a disposable user of the target is refused (401): an earlier run or check deleted or suspended it; give the target fresh disposable users'
}

/** The disposable user as they see themselves, or the check is skipped, saying why. */
export async function readDisposable(context: TestContext, user: DisposableUser): Promise<ApiUser> {
  const found = await probeDisposable(user)
  if (!found) context.skip(goneReason())
  return found as ApiUser
}
