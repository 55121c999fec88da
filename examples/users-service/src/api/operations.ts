import type { Database } from '../database/database.js'
import { isUserId } from '../random-ids.js'
import { mayDelete, mayList, mayPatch, mayRead } from '../users/permissions.js'
import { deleteMember, findMember, listMembers, updateMember, type User } from '../users/users-table.js'
import { recordEvent } from '../webhooks/outbox.js'
import type { ListParameters, UserPatch } from './parse-input.js'
import { ApiError } from './problem.js'

// The operations, once the request is valid: existence in the caller's organization (404), then
// permission (403), then the state rule (409), then the change (docs/contract.md §3, steps 6 to 8).

export interface OperationContext {
  db: Database
  caller: User
  /** Told after a commit that wrote webhook deliveries. */
  onEventsCommitted: () => void
}

export interface Answer {
  status: 200 | 204
  body?: unknown
}

export async function listUsers({ db, caller }: OperationContext, parameters: ListParameters): Promise<Answer> {
  if (!mayList(caller)) throw forbidden()
  const { page, limit, role, search } = parameters
  const offset = ((page - 1n) * BigInt(limit)).toString()
  const found =
    // PostgreSQL's text cannot hold U+0000, so no name or email has it, and the query could not carry it.
    search?.includes('\u0000') === true
      ? { users: [], total: 0 }
      : await listMembers(db, {
          organizationId: caller.organizationId,
          limit,
          offset,
          ...(role ? { role } : {}),
          ...(search ? { search } : {}),
        })
  return {
    status: 200,
    body: {
      data: found.users,
      meta: { page: Number(page), limit, total: found.total, totalPages: Math.ceil(found.total / limit) },
    },
  }
}

export async function getCurrentUser({ caller }: OperationContext): Promise<Answer> {
  return { status: 200, body: { data: caller } }
}

export async function getUser({ db, caller }: OperationContext, id: string): Promise<Answer> {
  const user = isUserId(id) ? await findMember(db, caller.organizationId, id) : undefined
  if (!user) throw notFound(id)
  if (!mayRead(caller, user)) throw forbidden()
  return { status: 200, body: { data: user } }
}

/**
 * The target is locked FOR UPDATE first, so two PATCHes of one user run one after the other: the second
 * sees the first's result, its changes and its event are computed against it, and events keep the order
 * of the changes. The event is written in the same transaction (the outbox).
 */
export async function updateUser(context: OperationContext, id: string, patch: UserPatch): Promise<Answer> {
  const { db, caller } = context
  const outcome = await db.transaction(async (tx) => {
    const user = isUserId(id) ? await findMember(tx, caller.organizationId, id, { lock: true }) : undefined
    if (!user) throw notFound(id)
    const keys = { name: 'name' in patch, role: 'role' in patch, status: 'status' in patch }
    if (!mayPatch(caller, user, { ...keys, ...(patch.role ? { newRole: patch.role } : {}) })) throw forbidden()
    // An INVITED user becomes ACTIVE by accepting the invitation, never through PATCH; the whole patch
    // is refused, its valid fields too (docs/contract.md §4).
    if (keys.status && user.status === 'INVITED') {
      throw new ApiError('INVALID_TRANSITION', `User ${id} is INVITED: their status changes when they accept.`)
    }
    const next = { name: patch.name ?? user.name, role: patch.role ?? user.role, status: patch.status ?? user.status }
    const changes = (['name', 'role', 'status'] as const).filter((field) => next[field] !== user[field])
    // Setting a field to its value changes nothing: no write, updatedAt stays, no event.
    if (changes.length === 0) return { user, events: 0 }
    const updated = await updateMember(tx, id, next)
    const events = await recordEvent(tx, { type: 'user.updated', user: updated, changes, actorId: caller.id })
    return { user: updated, events }
  })
  if (outcome.events > 0) context.onEventsCommitted()
  return { status: 200, body: { data: outcome.user } }
}

export async function deleteUser(context: OperationContext, id: string): Promise<Answer> {
  const { db, caller } = context
  const events = await db.transaction(async (tx) => {
    const user = isUserId(id) ? await findMember(tx, caller.organizationId, id, { lock: true }) : undefined
    if (!user) throw notFound(id)
    if (!mayDelete(caller, user)) throw forbidden()
    // Their tokens go with them (ON DELETE CASCADE): the next request with one is a 401.
    await deleteMember(tx, id)
    return recordEvent(tx, { type: 'user.deleted', user, actorId: caller.id })
  })
  if (events > 0) context.onEventsCommitted()
  return { status: 204 }
}

function notFound(id: string): ApiError {
  return new ApiError('USER_NOT_FOUND', `No user ${JSON.stringify(id).slice(0, 80)} in your organization.`)
}

function forbidden(): ApiError {
  return new ApiError('FORBIDDEN', 'Your role does not allow this on this user.')
}
