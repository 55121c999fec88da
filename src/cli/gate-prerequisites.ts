import { DISPOSABLE_USERS_NEEDED } from '../target/disposable-slots.js'
import { ACTOR_DESCRIPTIONS } from '../target/target-format.js'
import { ACTOR_NAMES, type Target } from '../contract/target/target.js'

/**
 * The disposable users fuzz needs of its own: the identity of writes that name no user, and one each
 * for its PATCH and DELETE shares (src/fuzz/schemathesis-hooks.py; docs/fuzzing.md says "give 3 or more").
 */
export const FUZZ_DISPOSABLE_USERS = 3

/** How many disposable users a gate run needs: verify's first, fuzz's after them; none when nothing is written. */
export function gateDisposableUsers(readOnly: boolean): number {
  return readOnly ? 0 : DISPOSABLE_USERS_NEEDED + FUZZ_DISPOSABLE_USERS
}

/**
 * Everything the target lacks for a gate run, each with what to do: every actor (verify has checks for
 * each), enough disposable users for verify and fuzz together, a webhook receiver or `"webhooks": false`.
 * Empty when the target is complete. Read before a single request is sent: a gate is strict, and a
 * target that lacks something would only fail it after minutes of checks.
 *
 * @example
 * listMissingPrerequisites({ baseUrl, actors: {}, disposable: [] }, { readOnly: false })
 * // ['the target has no "owner" actor: add actors.owner, the token of an ACTIVE CLIENT_OWNER', …]
 */
export function listMissingPrerequisites(target: Target, { readOnly }: { readOnly: boolean }): string[] {
  const missing = ACTOR_NAMES.filter((name) => !target.actors[name]).map(
    (name) => `the target has no "${name}" actor: add actors.${name}, the token of ${ACTOR_DESCRIPTIONS[name]}`,
  )
  const needed = gateDisposableUsers(readOnly)
  const listed = target.disposable.length
  if (listed < needed) {
    missing.push(
      `the target lists ${listed} disposable users; the gate needs ${needed} (${DISPOSABLE_USERS_NEEDED} for verify, ${FUZZ_DISPOSABLE_USERS} for fuzz): add ${needed - listed} fresh ACTIVE CLIENT_VIEWERs of the first organization`,
    )
  }
  if (target.webhooks === undefined) {
    missing.push(
      'the target configures no webhook receiver: add "webhooks" (schemas/target.schema.json), or "webhooks": false if the backend sends none',
    )
  }
  return missing
}
