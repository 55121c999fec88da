import { BoundedMap } from './bounded-map.js'
import type { CallerBook } from './caller-book.js'
import { operationOf, statusOf, succeeded, tokenOf, type ObservedExchange } from './observed-exchange.js'
import { readPatchBody } from './patch-body.js'
import type { Span, UserBook } from './user-book.js'
import { usersInAnswer } from './users-in-answer.js'

/** An answer that says something of a user which a later answer may prove false. */
export interface Claim extends Span {
  /** The request, for people: method and path (and the PATCH's body). */
  request: string
}

/** A 404 for a user the caller's organization had: later answers must not show them again. */
export interface NotFoundClaim extends Claim {
  organizationId: string
}

/**
 * What answers claimed of users that a later answer can contradict, whoever writes in between: a 404 for
 * a user shown before it (a user shown after it too existed all along: deleted users never come back,
 * docs/contract.md §4), and a status set by a PATCH answered 2xx (a user shown INVITED after it was
 * INVITED all along: nothing makes a user INVITED again). Bounded: one claim of each kind a user.
 */
export class ClaimBook {
  readonly notFound: BoundedMap<string, NotFoundClaim>
  readonly statusSet: BoundedMap<string, Claim>

  constructor(limit: number) {
    this.notFound = new BoundedMap(limit)
    this.statusSet = new BoundedMap(limit)
  }

  /** Learns the claims of one exchange, once the rules have judged it; a claim contradicted is said once. */
  learn(observed: ObservedExchange, users: UserBook, callers: CallerBook): void {
    for (const user of usersInAnswer(observed)) {
      if ((this.notFound.get(user.id)?.endedAt ?? Infinity) < observed.startedAt) this.notFound.delete(user.id)
      if (user.status === 'INVITED' && (this.statusSet.get(user.id)?.endedAt ?? Infinity) < observed.startedAt)
        this.statusSet.delete(user.id)
    }
    const { userId } = observed
    if (userId === undefined) return
    const operation = operationOf(observed)
    const request = describeRequest(observed)
    const span = { startedAt: observed.startedAt, endedAt: observed.endedAt }
    if (
      operation === 'updateUser' &&
      succeeded(observed) &&
      !observed.refusal &&
      'status' in (readPatchBody(observed) ?? {})
    )
      this.statusSet.set(userId, { ...span, request })
    if (statusOf(observed) !== 404 || !observed.valid || !isPlainId(observed.path, userId)) return
    const token = tokenOf(observed)
    const organizationId = token === undefined ? undefined : callers.get(token).organizationId
    // Seen in the caller's organization by an answer that ended before the 404 was asked for.
    const first = users.firstCreatedAt(userId)
    if (organizationId === undefined || users.organizationOf(userId) !== organizationId) return
    if (!first || first.endedAt >= observed.startedAt || users.deletionOf(userId)) return
    this.notFound.set(userId, { ...span, request, organizationId })
  }
}

function describeRequest(observed: ObservedExchange): string {
  const { method, body } = observed.exchange.request
  return `${method} ${observed.path}${method === 'PATCH' && body !== undefined ? ` ${body}` : ''}`
}

/**
 * Whether the id's segment is written the one way every server reads alike: no escaped letter, digit,
 * `-._~`, `/` or `\`, and no dot segment, which a server or a proxy in front of it may decode or resolve
 * before routing (then the 404 may be a route's).
 */
function isPlainId(path: string, id: string): boolean {
  const segment = path.slice(path.lastIndexOf('/') + 1)
  if (id === '.' || id === '..' || /[/\\]/.test(id)) return false
  return !/%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2[DE]|5F|7E|2F|5C)/i.test(segment)
}
