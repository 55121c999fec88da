import { AppError } from '../errors.js'
import { MemberIndex } from './member-index/member-index.js'
import type { MockState, StoredUser } from './mock-state.js'
import type { ChangedField, UserEventListener } from './user-events.js'
import { checkUserName } from './user-name.js'
import { assertMayDelete, assertMayList, assertMayRead, assertMayUpdate } from './permissions.js'
import type { ListQuery, Organization, User, UserPage, UserPatch } from './user.js'

export interface TokenEntry {
  token: string
  user: User
}

interface Tenant {
  organization: Organization
  members: MemberIndex
}

/** What a store is built from: a state, whose users may come one at a time (a generation that streams). */
export interface StateSource {
  organizations: readonly Organization[]
  users: Iterable<StoredUser>
}

/** A user as a store holds them: with their token, if they have one. Replaced whole, never changed. */
export interface Member {
  readonly user: User
  readonly token: string | undefined
}

/**
 * A store's users and tokens at one moment, in the order they were added, for another store to start from
 * (`UserStore.restore`) or for an export (`stateOfSnapshot`, `stateJsonSlices`). Cheap to take and to keep: a
 * store never changes a member or user object, it replaces it, so a snapshot is one array of the objects it
 * shares with the store (~2 ms for 100,000 users; looking each user's token up took 15-44 ms, and four exports
 * at once took that four times over in one turn of the event loop).
 */
export interface StoreSnapshot {
  readonly organizations: readonly Organization[]
  readonly members: readonly Member[]
}

/**
 * The users of every organization, their tokens, and the operations of the users API on them.
 * Knows nothing of HTTP: it throws AppError codes that the mock maps to statuses. A user object is never
 * changed once stored: an update stores a new one (see StoreSnapshot).
 *
 * @example
 * const store = new UserStore(state)
 * const caller = store.authenticate('owner-token')
 * store.listUsers(caller, { page: 1, limit: 20, search: 'ada' })
 */
export class UserStore {
  private readonly tenants = new Map<string, Tenant>()
  /** Every user with their token, by id, in the order they were added. */
  private readonly membersById = new Map<string, Member>()
  private readonly userIdByToken = new Map<string, string>()
  private changes = 0

  constructor(
    state: StateSource,
    private readonly now: () => Date = () => new Date(),
    /** CONTRACT §6: told after each change that emits an event (a real PATCH, a DELETE). */
    private readonly onEvent: UserEventListener = () => {},
  ) {
    for (const organization of state.organizations) {
      this.tenants.set(organization.id, { organization: { ...organization }, members: new MemberIndex() })
    }
    for (const user of state.users) this.addUser(user)
  }

  /** A store holding what the snapshot holds, sharing its user objects (they are never changed). */
  static restore(snapshot: StoreSnapshot, now?: () => Date, onEvent?: UserEventListener): UserStore {
    const store = new UserStore({ organizations: snapshot.organizations, users: [] }, now, onEvent)
    for (const member of snapshot.members) store.hold(member)
    return store
  }

  /** Its users and tokens as they are now, for `restore` (a reset) to return to. */
  snapshot(): StoreSnapshot {
    return {
      organizations: this.organizations().map((organization) => ({ ...organization })),
      members: [...this.membersById.values()],
    }
  }

  /** Counts the changes since construction: whoever saves the state can tell whether it changed. */
  get revision(): number {
    return this.changes
  }

  /** Adds a user (seeding, the mock's disposable users). The state was validated before. */
  addUser(stored: StoredUser): User {
    const user = withoutToken(stored)
    this.hold(Object.freeze({ user, token: stored.token }))
    return user
  }

  private hold(member: Member): void {
    const { user, token } = member
    this.changes++
    this.tenantOf(user.organizationId).members.add(user)
    this.membersById.set(user.id, member)
    if (token !== undefined) this.userIdByToken.set(token, user.id)
  }

  /** CONTRACT §2: unknown tokens, and those of deleted, suspended or invited users, are refused. */
  authenticate(token: string): User {
    const userId = this.userIdByToken.get(token)
    const user = userId === undefined ? undefined : this.membersById.get(userId)?.user
    if (!user) throw new AppError('UNAUTHENTICATED', UNKNOWN_TOKEN, { invalidToken: true })
    if (user.status !== 'ACTIVE') {
      throw new AppError('UNAUTHENTICATED', inactiveToken(user.status), {
        invalidToken: true,
      })
    }
    return user
  }

  listUsers(caller: User, query: ListQuery): UserPage {
    assertMayList(caller)
    const matches = this.tenantOf(caller.organizationId).members.query({
      role: query.role,
      search: query.search || undefined,
    })
    const start = (query.page - 1) * query.limit
    return {
      data: matches.slice(start, start + query.limit),
      meta: {
        page: query.page,
        limit: query.limit,
        total: matches.length,
        totalPages: Math.ceil(matches.length / query.limit),
      },
    }
  }

  getUser(caller: User, id: string): User {
    const target = this.findInOrganization(caller, id)
    assertMayRead(caller, target)
    return target
  }

  updateUser(caller: User, id: string, patch: UserPatch): User {
    const target = this.findInOrganization(caller, id)
    assertMayUpdate(caller, target, patch)
    // CONTRACT §4: INVITED users become active by accepting their invitation, never through PATCH.
    if (patch.status !== undefined && target.status === 'INVITED') {
      throw new AppError(
        'INVALID_TRANSITION',
        'The status of an INVITED user cannot be changed; they become active by accepting their invitation.',
      )
    }
    const changes = changedFields(target, patch)
    const changed = Object.keys(changes) as ChangedField[]
    // CONTRACT §6: a no-op PATCH changes nothing and emits nothing.
    if (changed.length === 0) return target
    this.changes++
    const updatedAt = this.nextUpdatedAt(target)
    const updated: User = Object.freeze({ ...target, ...changes, updatedAt })
    this.tenantOf(target.organizationId).members.replace(target, updated)
    this.membersById.set(updated.id, Object.freeze({ user: updated, token: this.membersById.get(updated.id)?.token }))
    this.onEvent({
      type: 'user.updated',
      timestamp: updatedAt,
      data: { user: { ...updated }, changes: changed, actorId: caller.id },
    })
    return updated
  }

  /** CONTRACT §4: the user is gone at once, and so is their token's access. */
  deleteUser(caller: User, id: string): void {
    const target = this.findInOrganization(caller, id)
    assertMayDelete(caller, target)
    this.changes++
    this.tenantOf(target.organizationId).members.remove(target)
    const token = this.membersById.get(target.id)?.token
    this.membersById.delete(target.id)
    if (token !== undefined) this.userIdByToken.delete(token)
    this.onEvent({
      type: 'user.deleted',
      timestamp: this.now().toISOString(),
      data: { user: { ...target }, actorId: caller.id },
    })
  }

  /** How many users it holds, every organization together. */
  get userCount(): number {
    return this.membersById.size
  }

  organizations(): Organization[] {
    return [...this.tenants.values()].map((tenant) => tenant.organization)
  }

  /** Every token with its user, organization by organization, in list order. */
  tokens(): TokenEntry[] {
    return this.listed().flatMap((user) => {
      const token = this.membersById.get(user.id)?.token
      return token === undefined ? [] : [{ token, user }]
    })
  }

  /**
   * Every token with its user, in the order they were added. Unlike `tokens()` it does not read the member
   * index, which files users added since its last query when next queried: building a target after adding
   * users stays cheap.
   */
  tokenHolders(): TokenEntry[] {
    const entries: TokenEntry[] = []
    for (const [token, userId] of this.userIdByToken) {
      const user = this.membersById.get(userId)?.user
      if (user) entries.push({ token, user })
    }
    return entries
  }

  /** The whole state in the fixture format: what `GET /__mock/state` exports. */
  /**
   * The whole state in the fixture format, users in the order they were added (as {@link snapshot}): the
   * list order would file every organization's members first, which took 10 s after loading 10,000
   * organizations, during which nobody else was answered.
   */
  exportState(): MockState {
    return stateOfSnapshot(this.snapshot())
  }

  /** Every user, organization by organization, in list order. */
  private listed(): User[] {
    return [...this.tenants.values()].flatMap((tenant) => [...tenant.members.query({})])
  }

  /** CONTRACT §3: another organization's user and a missing one are the same 404. */
  private findInOrganization(caller: User, id: string): User {
    const user = this.membersById.get(id)?.user
    if (!user || user.organizationId !== caller.organizationId) {
      throw new AppError('USER_NOT_FOUND', `No user ${id} in your organization.`)
    }
    return user
  }

  private tenantOf(organizationId: string): Tenant {
    const tenant = this.tenants.get(organizationId)
    if (!tenant) throw new AppError('INTERNAL', `No organization ${organizationId}.`)
    return tenant
  }

  /** Later than the previous value even within one millisecond, so every real change is visible. */
  private nextUpdatedAt(user: User): string {
    return new Date(Math.max(this.now().getTime(), Date.parse(user.updatedAt) + 1)).toISOString()
  }
}

/** A snapshot in the fixture format: each user with their token, in the snapshot's order. */
export function stateOfSnapshot(snapshot: StoreSnapshot): MockState {
  return {
    organizations: snapshot.organizations.map((organization) => ({ ...organization })),
    users: snapshot.members.map(storedUser),
  }
}

/** A member in the fixture format: a copy of the user, with their token if they have one. */
export function storedUser({ user, token }: Member): StoredUser {
  return token === undefined ? { ...user } : { ...user, token }
}

/**
 * The user without their token: the document's fields in its order, one object shape for every user (a copy
 * by spread of a rest object kept each user's fields out of the object, ~60 bytes more a user), then any
 * field a document of one's own adds. Frozen: snapshots share it, so a change would reach a reset's baseline.
 */
function withoutToken(stored: StoredUser): User {
  const { id, email, name, role, organizationId, status, createdAt, updatedAt } = stored
  const user: User = { id, email, name, role, organizationId, status, createdAt, updatedAt }
  for (const key of Object.keys(stored)) {
    if (key !== 'token' && !Object.hasOwn(user, key)) {
      // Defined, not assigned: a field named __proto__ stays a field, as the spread it replaces kept it.
      Object.defineProperty(user, key, {
        value: stored[key as keyof StoredUser],
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
  }
  return Object.freeze(user)
}

const UNKNOWN_TOKEN = 'The token is unknown or was revoked.'
const inactiveToken = (status: string): string => `The token belongs to a user who is ${status}.`

/** CONTRACT §4: names are stored trimmed; setting a field to its value changes nothing. */
function changedFields(user: User, patch: UserPatch): Partial<User> {
  const changes: Partial<User> = {}
  // The name's rule (CONTRACT §1) is the request's validation (engine/validate-request.ts), a 400 before the 404.
  const name = patch.name === undefined ? undefined : checkUserName(patch.name).trimmed
  if (name !== undefined && name !== user.name) changes.name = name
  if (patch.role !== undefined && patch.role !== user.role) changes.role = patch.role
  if (patch.status !== undefined && patch.status !== user.status) changes.status = patch.status
  return changes
}
