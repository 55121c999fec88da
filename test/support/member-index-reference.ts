import type { MemberFilter } from '../../src/domain/member-index/member-index.js'
import { ROLES, type Role, type User } from '../../src/domain/user.js'

// The member index's brute-force reference (CONTRACT §4: filter everyone, then sort) and random
// organizations to compare it with: test/domain/member-index.test.ts, and the mutation setup's test of the
// variants it leaves out (test/contract-suite/left-out-mutants.test.ts).

const JAN_8 = '2024-01-08T09:00:00.000Z'

/** A user of the test organization with these fields (a viewer, ACTIVE, created on 8 January 2024). */
export function makeUser(fields: Pick<User, 'id' | 'name' | 'email'> & Partial<User>): User {
  return {
    role: 'CLIENT_VIEWER',
    organizationId: 'org_test',
    status: 'ACTIVE',
    createdAt: JAN_8,
    updatedAt: JAN_8,
    ...fields,
  }
}

/** A small seeded PRNG (mulberry32): the differential test is the same on every run. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state)
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

/** The contract written as plainly as possible: filter everyone, then sort. */
export function referenceQuery(users: Iterable<User>, { role, search = '' }: MemberFilter): User[] {
  const term = search.toLowerCase()
  return [...users]
    .filter((user) => role === undefined || user.role === role)
    .filter((user) => user.name.toLowerCase().includes(term) || user.email.toLowerCase().includes(term))
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1))
}

/** Random members with few distinct letters, so that terms match many of them and grams collide. */
export class Population {
  /** The members the index should hold, in no particular order. */
  readonly live: User[] = []
  readonly deleted: User[] = []
  #nextId = 0

  constructor(readonly random: () => number) {}

  pick<Item>(items: readonly Item[]): Item {
    return items[Math.floor(this.random() * items.length)]!
  }

  makeName(): string {
    const syllables = ['ab', 'An', 'el', 'É', 'ö', 'son', 'MA', 'ri', 'lo', 'K', 'x', ' ', 'İ', 'ß', '😀', '.']
    const count = 1 + Math.floor(this.random() * 6)
    return Array.from({ length: count }, () => this.pick(syllables)).join('')
  }

  makeUser(): User {
    // Few distinct instants: many members share a createdAt, and ids break the tie.
    const createdAt = new Date(Date.UTC(2024, 0, 1) + Math.floor(this.random() * 400) * 1000).toISOString()
    const id = `usr_${this.pick(['a', 'B', 'c', 'Z'])}${(this.#nextId++).toString(36)}`
    const email = `${this.makeName().replace(/\s/g, '')}.${id.slice(4)}@${this.pick(['Ex.io', 'mail.com', 'ab.org'])}`
    return makeUser({ id, name: this.makeName(), email, createdAt, role: this.pickRole(), status: 'ACTIVE' })
  }

  /** Owners are rare, as in a real organization: a role filter then narrows a lot. */
  pickRole(): Role {
    return this.random() < 0.03 ? 'CLIENT_OWNER' : this.pick(['CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER'] as const)
  }

  /** A live member's position in `live`, or undefined when there is none. */
  pickLive(): number | undefined {
    return this.live.length === 0 ? undefined : Math.floor(this.random() * this.live.length)
  }

  takeLive(position: number): User {
    const user = this.live[position]!
    this.live[position] = this.live[this.live.length - 1]!
    this.live.pop()
    return user
  }

  makeFilter(): MemberFilter {
    const role = this.random() < 0.4 ? this.pick(ROLES) : undefined
    const dice = this.random()
    if (dice < 0.1) return { role }
    const source = this.live[this.pickLive() ?? 0]
    if (dice < 0.3 || source === undefined)
      return { role, search: this.makeName().slice(0, 1 + Math.floor(this.random() * 5)) }
    const text = this.random() < 0.5 ? source.name : source.email
    const start = Math.floor(this.random() * text.length)
    const term = text.slice(start, start + 1 + Math.floor(this.random() * 7))
    return { role, search: this.random() < 0.3 ? term.toUpperCase() : term }
  }
}

/** What a member index offers the store: the index itself, or a variant of its code. */
export interface MemberIndexLike {
  add(user: User): void
  remove(user: User): boolean
  replace(before: User, after: User): void
  query(filter: MemberFilter): readonly User[]
}

/**
 * What the users API does to one organization's member index, the reference beside it: a state loaded whole,
 * then PATCHes (a changed copy in the user's place: name, role or status) and DELETEs between reads, half the
 * reads repeating a recent filter (what a memo answers), enough deletions to rebuild. Nobody is added after
 * the load: the users API creates no user (a reset or PUT /__mock/state makes a new index). Answers the first
 * read that differs from the reference, or undefined.
 */
export function firstDifferenceUnderTheApi(makeIndex: () => MemberIndexLike, seed = 20240108): string | undefined {
  const population = new Population(mulberry32(seed))
  const { random } = population
  const index = makeIndex()
  for (let count = 0; count < 1500; count++) {
    const user = population.makeUser()
    population.live.push(user)
    index.add(user)
  }
  const recent: MemberFilter[] = []
  for (let step = 0; step < 800; step++) {
    const changes = step === 0 ? 0 : 1 + Math.floor(random() * 3)
    for (let change = 0; change < changes && population.live.length > 1; change++) {
      const position = population.pickLive()!
      if (random() < 0.3) {
        index.remove(population.takeLive(position))
        continue
      }
      const before = population.live[position]!
      const field = population.pick(['name', 'role', 'status'] as const)
      const after: User = {
        ...before,
        ...(field === 'name' && { name: population.makeName() }),
        ...(field === 'role' && { role: population.pickRole() }),
        ...(field === 'status' && { status: before.status === 'ACTIVE' ? 'SUSPENDED' : 'ACTIVE' }),
      }
      index.replace(before, after)
      population.live[position] = after
    }
    const filter = recent.length > 0 && random() < 0.5 ? population.pick(recent) : population.makeFilter()
    recent.push(filter)
    if (recent.length > 8) recent.shift()
    const found = index.query(filter)
    const expected = referenceQuery(population.live, filter)
    const same = found.length === expected.length && found.every((user, at) => user === expected[at])
    if (!same) return `read ${step} ${JSON.stringify(filter)}: ${found.length} users, the reference ${expected.length}`
  }
  return undefined
}
