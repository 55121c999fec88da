import { CallerBook } from './caller-book.js'
import { ClaimBook } from './claim-book.js'
import { ConflictBook, toConflict } from './conflict-book.js'
import { listKey, ListBook } from './list-book.js'
import {
  asksForAnError,
  dataOf,
  operationOf,
  statusOf,
  succeeded,
  tokenOf,
  type ObservedExchange,
} from './observed-exchange.js'
import { ANY_USER, UserBook, type Span } from './user-book.js'
import { listItemsOf, usersInAnswer, type SeenUser } from './users-in-answer.js'
import { readListAnswer } from './list-answer.js'
import { WholeListBook } from './whole-list-book.js'
import { isSafeMethod } from '../http/methods.js'

/** How much the proxy remembers, at most. */
export interface KnowledgeLimits {
  /** Users (snapshots, organizations, deletions, writes). */
  users: number
  callers: number
  lists: number
}

export const DEFAULT_KNOWLEDGE_LIMITS: KnowledgeLimits = { users: 50_000, callers: 1_000, lists: 1_000 }

/** A PATCH answered 400 or 409, and the user as they were before it: a later answer must show them unchanged. */
export interface RefusedPatch extends Span {
  before: SeenUser
  status: 400 | 409
}

/**
 * What the proxy learned from the traffic it forwarded, for the rules that judge one exchange by
 * earlier ones: who each token belongs to, the users it saw, the pages of lists, deletions, and the
 * writes that may have changed a user since it was seen. Bounded: it forgets the oldest first, and a
 * rule that needs something forgotten judges nothing.
 */
export class Knowledge {
  readonly callers: CallerBook
  readonly users: UserBook
  readonly lists: ListBook
  readonly conflicts: ConflictBook
  readonly claims: ClaimBook
  readonly wholeLists: WholeListBook = new WholeListBook()
  private readonly refusedPatches: Map<string, RefusedPatch> = new Map()
  private readonly limits: KnowledgeLimits

  /** `now`: the proxy's time in ms, for how fresh an answer is (a test passes its own). */
  constructor(
    limits: KnowledgeLimits = DEFAULT_KNOWLEDGE_LIMITS,
    readonly now: () => number = () => performance.now(),
  ) {
    this.limits = limits
    this.callers = new CallerBook(limits.callers)
    this.users = new UserBook(limits.users)
    this.lists = new ListBook(limits.lists)
    this.conflicts = new ConflictBook(limits.callers)
    this.claims = new ClaimBook(limits.users)
  }

  /** A request arrived: a write (any method but the safe ones, src/http/methods.ts) may change its user from now on. */
  begin(method: string, userId: string | undefined, startedAt: number): void {
    if (!isWrite(method)) return
    this.users.writes.begin(ANY_USER, startedAt)
    if (userId !== undefined) this.users.writes.begin(userId, startedAt)
  }

  /**
   * An exchange ended with no answer to learn from: its write, if it was one, may have changed anything,
   * unless its status alone says it was refused (a 4xx).
   */
  abandon(method: string, userId: string | undefined, span: Span, refused: boolean): void {
    if (!isWrite(method)) return
    this.users.writes.end(ANY_USER, span.startedAt, span.endedAt, refused)
    if (userId !== undefined) this.users.writes.end(userId, span.startedAt, span.endedAt, refused)
  }

  /** An exchange ended: what its answer teaches, once the rules have judged it by what came before. */
  learn(observed: ObservedExchange): void {
    const { startedAt, endedAt, userId } = observed
    const method = observed.exchange.request.method
    const status = statusOf(observed)
    const span = { startedAt, endedAt }
    if (isWrite(method)) {
      const refused = status >= 400 && status <= 499
      this.users.writes.end(ANY_USER, startedAt, endedAt, refused)
      if (userId !== undefined) this.users.writes.end(userId, startedAt, endedAt, refused)
    }
    // A mock's simulated error (Prefer: code=) says nothing of the users.
    if (asksForAnError(observed)) return
    this.claims.learn(observed, this.users, this.callers)
    const operation = operationOf(observed)
    if (operation === 'updateUser' && (status === 400 || status === 409) && userId !== undefined)
      this.rememberRefusedPatch(userId, span, status)
    if (operation === 'updateUser' && status === 409) this.rememberConflict(observed)
    if (!succeeded(observed)) return
    const seenAt = this.now()
    for (const user of usersInAnswer(observed)) this.users.see(user, span, seenAt)
    const token = tokenOf(observed)
    if (token !== undefined) this.callers.learnAccepted(token, span.endedAt, seenAt)
    if (operation === 'deleteUser' && userId !== undefined) this.users.recordDeletion(userId, span)
    if ((operation === 'deleteUser' || operation === 'updateUser') && userId !== undefined)
      this.followWrite(observed, userId, span)
    if (token === undefined) return
    const me = dataOf(observed) as SeenUser | undefined
    if (operation === 'getCurrentUser' && typeof me?.id === 'string') {
      this.conflicts.forget(token)
      this.callers.learnFromMe(token, me.id, typeof me.organizationId === 'string' ? me.organizationId : undefined)
    }
    if (operation === 'listUsers') this.learnFromList(token, observed, span)
  }

  /** The PATCH answered 400 or 409 that the user's next answer must not contradict, if one is pending. */
  refusedPatchOf(id: string): RefusedPatch | undefined {
    return this.refusedPatches.get(id)
  }

  forgetRefusedPatch(id: string): void {
    this.refusedPatches.delete(id)
  }

  private rememberRefusedPatch(id: string, span: Span, status: 400 | 409): void {
    const before = this.users.sureSnapshot(id, span, [span.startedAt])
    if (!before) return
    this.refusedPatches.delete(id)
    this.refusedPatches.set(id, { before, status, ...span })
    if (this.refusedPatches.size > this.limits.users)
      this.refusedPatches.delete(this.refusedPatches.keys().next().value as string)
  }

  /** A 409 to a token not known yet: judged once its /me says whose it is. */
  private rememberConflict(observed: ObservedExchange): void {
    const token = tokenOf(observed)
    if (token === undefined || observed.refusal || this.callers.get(token).userId !== undefined) return
    const conflict = toConflict(observed, this.users)
    if (conflict) this.conflicts.remember(token, conflict)
  }

  private learnFromList(token: string, observed: ObservedExchange, span: Span): void {
    const items = listItemsOf(observed) ?? []
    const organizations = new Set(items.map((item) => item.organizationId))
    const [organization] = organizations
    if (organizations.size === 1 && typeof organization === 'string')
      this.callers.learnOrganizationFromList(token, organization)
    this.learnWholeList(token, observed, span)
    const page = Number(observed.query.get('page') ?? '1')
    if (!Number.isSafeInteger(page)) return
    this.lists.record(listKey(token, observed.query), {
      page,
      items: items.map(({ id, createdAt }) => ({ id, createdAt })),
      ...span,
    })
  }

  /** A write answered 2xx: the whole list of its user's organization follows what its answer says it did. */
  private followWrite(observed: ObservedExchange, userId: string, span: Span): void {
    const organizationId = this.users.organizationOf(userId)
    const after = dataOf(observed) as SeenUser | undefined
    const deleted = operationOf(observed) === 'deleteUser'
    if (organizationId === undefined || (!deleted && after?.id !== userId)) return
    const change = deleted || !after ? { remove: userId } : { replace: after }
    const changedBetween = (from: number, to: number, except: readonly number[]): boolean =>
      this.users.writes.changedBetween(ANY_USER, from, to, except)
    this.wholeLists.follow(organizationId, change, span, changedBetween)
  }

  /** A page of the unfiltered list (no role, no search or the empty one), toward the organization's whole list. */
  private learnWholeList(token: string, observed: ObservedExchange, span: Span): void {
    const answer = readListAnswer(observed)
    if (!answer || observed.query.has('role') || (observed.query.get('search') ?? '') !== '') return
    const organizationId = this.callers.get(token).organizationId
    if (organizationId === undefined || answer.items.some((item) => item.organizationId !== organizationId)) return
    const { userId } = this.callers.get(token)
    const role = userId === undefined ? undefined : this.users.latest(userId)?.user.role
    const reader = userId === undefined ? 'a caller' : `the ${role ?? 'user'} ${userId}`
    const page = { ...answer, ...span, organizationId, seenAt: this.now(), reader }
    this.wholeLists.record(page, (from, to) => this.users.writes.changedBetween(ANY_USER, from, to))
  }
}

function isWrite(method: string): boolean {
  return !isSafeMethod(method)
}
