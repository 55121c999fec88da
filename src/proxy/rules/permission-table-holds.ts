import { decidePermission, type PatchKeys, type PermissionRequest } from '../../contract/rules/permission-table.js'
import { isRole, type Role } from '../../spec/roles.js'
import type { Knowledge } from '../knowledge.js'
import { readPatchBody } from '../patch-body.js'
import { dataOf, operationOf, statusOf, succeeded, tokenOf, type ObservedExchange } from '../observed-exchange.js'
import type { SeenUser } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const permissionTableHolds = defineRule({
  name: 'permission-table-holds',
  rule: "Who may do what: a success the table refuses the caller's role, or a 403 it allows, breaks it (docs/contract.md §3)",
  observe(observed, knowledge) {
    const token = tokenOf(observed)
    // A request refused by itself (a bad body, say) is judged by the order of checks, before permission.
    if (observed.refusal || token === undefined) return []
    const callerId = knowledge.callers.get(token).userId
    const caller =
      callerId === undefined ? undefined : knowledge.users.sureSnapshot(callerId, observed, [observed.startedAt])
    // Who the caller is now, surely: their role, and whether they may call at all (else a 401 is due).
    if (!callerId || !caller || !isRole(caller.role) || caller.status !== 'ACTIVE') return []
    const status = statusOf(observed)
    if (operationOf(observed) === 'getCurrentUser' && status === 403)
      return found(
        '§3.me.allows',
        `Received: 403 for GET /api/users/me of a ${caller.role}\nExpected: 200, every role reads itself`,
      )
    // Another organization's user is a 404 before any permission: other-organizations-ids-are-404's to judge.
    const theirs = observed.userId === undefined ? undefined : knowledge.users.organizationOf(observed.userId)
    if (theirs !== undefined && theirs !== caller.organizationId) return []
    const request = toPermissionRequest(observed, caller.role, callerId, knowledge)
    if (!request) return []
    const { verdict, sentence } = decidePermission(request)
    const who = `a ${caller.role}${'self' in request && request.self ? ' on themselves' : ''}`
    if (succeeded(observed) && verdict === 'refused')
      return found(
        sentence,
        `Received: ${status} for ${describe(observed)} by ${who}\nExpected: 403, the table refuses it`,
      )
    if (status === 403 && verdict === 'allowed')
      return found(sentence, `Received: 403 for ${describe(observed)} by ${who}\nExpected: the table allows it`)
    return []
  },
})

/** The request as the permission table reads it, with the target's role where the proxy is sure of it. */
function toPermissionRequest(
  observed: ObservedExchange,
  caller: Role,
  callerId: string,
  knowledge: Knowledge,
): PermissionRequest | undefined {
  const operation = operationOf(observed)
  if (operation === 'listUsers') return { operation: 'list', caller }
  const { userId } = observed
  if (userId === undefined) return undefined
  const self = userId === callerId
  // The answer shows the target as they are after the request: their role then, unless it changed it.
  const answered = succeeded(observed) ? (dataOf(observed) as SeenUser | undefined) : undefined
  const before = (): Role | undefined => {
    const role = knowledge.users.sureSnapshot(userId, observed, [observed.startedAt])?.role
    return isRole(role) ? role : undefined
  }
  if (operation === 'getUser') return { operation: 'read', caller, self, target: roleOf(answered) ?? before() }
  if (operation === 'deleteUser') return { operation: 'delete', caller, self, target: before() }
  if (operation !== 'updateUser') return undefined
  const patch = readPatchBody(observed) as PatchKeys | undefined
  if (!patch) return undefined
  const target = 'role' in patch ? before() : (roleOf(answered) ?? before())
  return { operation: 'update', caller, self, target, patch }
}

function roleOf(user: SeenUser | undefined): Role | undefined {
  return isRole(user?.role) ? user.role : undefined
}

function describe(observed: ObservedExchange): string {
  const { method } = observed.exchange.request
  const body = method === 'PATCH' ? ` ${observed.exchange.request.body ?? ''}` : ''
  return `${method} ${observed.path}${body}`
}
