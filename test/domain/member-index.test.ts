import { describe, expect, test } from 'vitest'
import { MemberIndex, type MemberFilter, type MemberIndexOptions } from '../../src/domain/member-index/member-index.js'
import type { Role, User } from '../../src/domain/user.js'
import {
  firstDifferenceUnderTheApi,
  makeUser,
  mulberry32,
  Population,
  referenceQuery,
} from '../support/member-index-reference.js'

// CONTRACT §4, GET /api/users: list order, the role filter and the search, for one organization.

function indexOf(users: User[], options?: MemberIndexOptions): MemberIndex {
  const index = new MemberIndex(options)
  for (const user of users) index.add(user)
  return index
}

function ids(users: readonly User[]): string[] {
  return users.map((user) => user.id)
}

function searchIds(index: MemberIndex, search: string, role?: Role): string[] {
  return ids(index.query({ search, role }))
}

const ada = makeUser({
  id: 'usr_ada',
  name: 'Ada Lovelace',
  email: 'countess@analytical.org',
  createdAt: '2024-01-01T00:00:00.000Z',
})
const grace = makeUser({
  id: 'usr_grace',
  name: 'Grace Hopper',
  email: 'GRACE@Navy.mil',
  role: 'CLIENT_ADMIN',
  createdAt: '2024-01-02T00:00:00.000Z',
})
const alan = makeUser({
  id: 'usr_alan',
  name: 'Alan Turing',
  email: 'alan@bletchley.uk',
  role: 'BOT_USER',
  createdAt: '2024-01-03T00:00:00.000Z',
})

describe('list order', () => {
  test('lists members by createdAt ascending, whatever the order they were added in', () => {
    const index = indexOf([alan, ada, grace])
    expect(ids(index.query({}))).toEqual(['usr_ada', 'usr_grace', 'usr_alan'])
  })

  test('members created at the same instant are ordered by id in plain string order', () => {
    const same = ['usr_b', 'usr_B', 'usr_a2', 'usr_a10'].map((id) =>
      makeUser({ id, name: 'Same', email: `${id}@x.io` }),
    )
    const index = indexOf([...same, ada])
    // Plain `<`: upper case before lower case, '1' before '2'; no locale, no numeric collation.
    expect(ids(index.query({}))).toEqual(['usr_ada', 'usr_B', 'usr_a10', 'usr_a2', 'usr_b'])
  })

  test('search results and role results are in list order too', () => {
    const late = makeUser({ id: 'usr_0', name: 'Ada Late', email: 'late@x.io', createdAt: '2024-02-01T00:00:00.000Z' })
    const index = indexOf([late, alan, grace, ada])
    expect(searchIds(index, 'a')).toEqual(['usr_ada', 'usr_grace', 'usr_alan', 'usr_0'])
    expect(searchIds(index, 'ada l')).toEqual(['usr_ada', 'usr_0'])
    expect(ids(index.query({ role: 'CLIENT_VIEWER' }))).toEqual(['usr_ada', 'usr_0'])
  })
})

describe('role filter', () => {
  test('keeps only the members with exactly that role', () => {
    const index = indexOf([ada, grace, alan])
    expect(ids(index.query({ role: 'CLIENT_ADMIN' }))).toEqual(['usr_grace'])
    expect(ids(index.query({ role: 'CLIENT_OWNER' }))).toEqual([])
  })

  test('combines with the search', () => {
    const index = indexOf([ada, grace, alan])
    expect(searchIds(index, 'a', 'BOT_USER')).toEqual(['usr_alan'])
    expect(searchIds(index, 'turing', 'BOT_USER')).toEqual(['usr_alan'])
    expect(searchIds(index, 'turing', 'CLIENT_VIEWER')).toEqual([])
  })
})

describe('search', () => {
  test('an empty search is no filter', () => {
    const index = indexOf([ada, grace, alan])
    expect(searchIds(index, '')).toEqual(['usr_ada', 'usr_grace', 'usr_alan'])
    expect(searchIds(index, '', 'CLIENT_ADMIN')).toEqual(['usr_grace'])
  })

  test('matches a substring of the name case-insensitively', () => {
    const index = indexOf([ada, grace, alan])
    expect(searchIds(index, 'LOVELACE')).toEqual(['usr_ada'])
    expect(searchIds(index, 'ce ho')).toEqual(['usr_grace'])
  })

  test('matches a substring of the email case-insensitively', () => {
    const index = indexOf([ada, grace, alan])
    expect(searchIds(index, 'grace@navy')).toEqual(['usr_grace'])
    expect(searchIds(index, 'ANALYTICAL')).toEqual(['usr_ada'])
    expect(searchIds(index, '.uk')).toEqual(['usr_alan'])
  })

  test('lower-cases non-ASCII letters on both sides', () => {
    const elodie = makeUser({ id: 'usr_elodie', name: 'ÉLODIE Ørsted', email: 'elodie@x.io' })
    const index = indexOf([elodie, ada])
    for (const term of ['élodie', 'ÉLODIE', 'Élo', 'él', 'é', 'É', 'ørsted', 'ØRSTED', 'e ø']) {
      expect(searchIds(index, term), term).toEqual(['usr_elodie'])
    }
  })

  test('finds characters outside the Basic Multilingual Plane', () => {
    const smiley = makeUser({ id: 'usr_smiley', name: 'Smiley 😀 Face', email: 'smiley@x.io' })
    const index = indexOf([smiley, ada])
    expect(searchIds(index, '😀')).toEqual(['usr_smiley'])
    expect(searchIds(index, ' 😀')).toEqual(['usr_smiley'])
    expect(searchIds(index, 'y 😀 f')).toEqual(['usr_smiley'])
  })

  test('terms of 1, 2, 3 and more characters each find exactly the members containing them', () => {
    const abc = makeUser({ id: 'usr_abc', name: 'Xabcde', email: 'one@x.io' })
    const ab = makeUser({ id: 'usr_ab', name: 'Xab', email: 'two@x.io' })
    const b = makeUser({ id: 'usr_b', name: 'Xb', email: 'three@x.io' })
    const index = indexOf([abc, ab, b])
    expect(searchIds(index, 'b')).toEqual(['usr_ab', 'usr_abc', 'usr_b'])
    expect(searchIds(index, 'ab')).toEqual(['usr_ab', 'usr_abc'])
    expect(searchIds(index, 'abc')).toEqual(['usr_abc'])
    expect(searchIds(index, 'abcd')).toEqual(['usr_abc'])
    expect(searchIds(index, 'abcde')).toEqual(['usr_abc'])
    expect(searchIds(index, 'abcdef')).toEqual([])
    expect(searchIds(index, 'zz')).toEqual([])
    expect(searchIds(index, 'zzzz')).toEqual([])
  })

  test('a term spanning the end of the name and the start of the email does not match', () => {
    const short = makeUser({ id: 'usr_short', name: 'ab', email: 'cd@x' })
    const long = makeUser({ id: 'usr_long', name: 'wxyz', email: 'klmn@x' })
    const index = indexOf([short, long])
    expect(searchIds(index, 'bc')).toEqual([])
    expect(searchIds(index, 'abc')).toEqual([])
    expect(searchIds(index, 'abcd')).toEqual([])
    expect(searchIds(index, 'yzkl')).toEqual([])
    expect(searchIds(index, 'zk')).toEqual([])
  })

  test('a term is matched as a substring, never as a pattern', () => {
    const dotted = makeUser({ id: 'usr_dotted', name: 'A.B', email: 'a.b@x.io' })
    const plain = makeUser({ id: 'usr_plain', name: 'AxB', email: 'axb@x.io' })
    const index = indexOf([dotted, plain])
    expect(searchIds(index, 'a.b')).toEqual(['usr_dotted'])
    expect(searchIds(index, '.*')).toEqual([])
  })
})

describe('the first query after a bulk load', () => {
  // Past REBUILD_AFTER_NEW_USERS (256) new members, the index files them all in one build.
  const others = Array.from({ length: 300 }, (_, n) =>
    makeUser({ id: `usr_other${n}`, name: 'Bob', email: `b${n}@x.io` }),
  )

  test.each([
    ['filed alone', []],
    ['filed in a bulk load', others],
  ])('a member whose name and email repeat a gram is listed once: %s', (_, bystanders) => {
    const echo = makeUser({ id: 'usr_echo', name: 'Aaa Aaa', email: 'aaa@aaa.aa' })
    const index = indexOf([...bystanders, echo, ada])
    expect(searchIds(index, 'a')).toEqual(['usr_ada', 'usr_echo'])
    for (const term of ['aa', 'aaa', 'a a', 'aaa a', 'a@a']) expect(searchIds(index, term), term).toEqual(['usr_echo'])
  })

  test('thousands of distinct grams are each found, with exactly their members', () => {
    // CJK ideographs: six grams of each name belong to that member alone, 18,000 in all.
    const members = Array.from({ length: 3000 }, (_, n) =>
      makeUser({
        id: `usr_${n.toString().padStart(4, '0')}`,
        name: String.fromCharCode(0x4e00 + n, 0x5e00 + n, 0x6e00 + n),
        email: `m${n}@x.io`,
      }),
    )
    const index = indexOf(members)
    for (const member of members) {
      for (const term of [member.name, member.name.slice(1), member.name.slice(2)])
        expect(searchIds(index, term)).toEqual([member.id])
    }
    expect(index.query({ search: '@x.io' })).toHaveLength(3000)
    expect(searchIds(index, 'm2999@')).toEqual(['usr_2999'])
  })
})

describe('changes', () => {
  test('a renamed member is found by the new name and no longer by the old one', () => {
    const user = makeUser({ id: 'usr_ren', name: 'Old Name', email: 'ren@x.uk' })
    const index = indexOf([user, ada])
    expect(searchIds(index, 'old name')).toEqual(['usr_ren'])
    index.remove(user)
    user.name = 'Brand New'
    index.add(user)
    for (const term of ['o', 'ol', 'old', 'old name']) expect(searchIds(index, term), term).not.toContain('usr_ren')
    for (const term of ['b', 'br', 'bra', 'brand new']) expect(searchIds(index, term), term).toEqual(['usr_ren'])
    expect(ids(index.query({}))).toEqual(['usr_ada', 'usr_ren'])
  })

  test('a role change moves the member from one role filter to the other', () => {
    const user = makeUser({ id: 'usr_role', name: 'Role Change', email: 'role@x.io', role: 'CLIENT_VIEWER' })
    const index = indexOf([user, grace])
    expect(ids(index.query({ role: 'CLIENT_VIEWER' }))).toEqual(['usr_role'])
    index.remove(user)
    user.role = 'CLIENT_ADMIN'
    index.add(user)
    expect(ids(index.query({ role: 'CLIENT_VIEWER' }))).toEqual([])
    expect(ids(index.query({ role: 'CLIENT_ADMIN' }))).toEqual(['usr_grace', 'usr_role'])
    expect(searchIds(index, 'role', 'CLIENT_ADMIN')).toEqual(['usr_role'])
  })

  test('a removed member is gone from every query, and the size counts it out', () => {
    const index = indexOf([ada, grace, alan])
    expect(index.remove(grace)).toBe(true)
    expect(index.size).toBe(2)
    expect(ids(index.query({}))).toEqual(['usr_ada', 'usr_alan'])
    expect(searchIds(index, 'grace')).toEqual([])
    expect(searchIds(index, 'gr')).toEqual([])
    expect(ids(index.query({ role: 'CLIENT_ADMIN' }))).toEqual([])
  })

  test('removing someone who is not there returns false and changes nothing', () => {
    const index = indexOf([ada])
    expect(index.remove(grace)).toBe(false)
    expect(ids(index.query({}))).toEqual(['usr_ada'])
  })

  test('an n-gram length the keys cannot hold is refused', () => {
    expect(() => new MemberIndex({ maxGramLength: 4 })).toThrow(RangeError)
    expect(() => new MemberIndex({ maxGramLength: 0 })).toThrow(RangeError)
  })

  test('adding the same id twice throws', () => {
    const index = indexOf([ada])
    expect(() => index.add({ ...ada })).toThrow(/usr_ada/)
  })

  test('a deleted member added back takes their place in the order again', () => {
    const index = indexOf([ada, grace, alan])
    index.remove(grace)
    expect(ids(index.query({}))).toEqual(['usr_ada', 'usr_alan'])
    index.add(grace)
    expect(ids(index.query({}))).toEqual(['usr_ada', 'usr_grace', 'usr_alan'])
    expect(searchIds(index, 'navy')).toEqual(['usr_grace'])
  })

  test('a member created before everyone else goes first', () => {
    const index = indexOf([ada, grace])
    index.query({})
    const early = makeUser({
      id: 'usr_early',
      name: 'Early Bird',
      email: 'early@x.io',
      createdAt: '2023-01-01T00:00:00.000Z',
    })
    index.add(early)
    expect(ids(index.query({}))).toEqual(['usr_early', 'usr_ada', 'usr_grace'])
    expect(searchIds(index, 'a')).toEqual(['usr_early', 'usr_ada', 'usr_grace'])
    expect(searchIds(index, 'lovelace')).toEqual(['usr_ada'])
  })

  test('a member swapped for a new object with the same id is returned as the new object', () => {
    const index = indexOf([ada, grace])
    index.query({})
    const newAda = { ...ada, status: 'SUSPENDED' as const }
    index.remove(ada)
    index.add(newAda)
    expect(index.query({})[0]).toBe(newAda)
    expect(index.query({ search: 'lovelace' })[0]).toBe(newAda)
    expect(index.query({ role: 'CLIENT_VIEWER' })[0]).toBe(newAda)
  })

  test('a result remembered before a status change gives the new object after it', () => {
    const index = indexOf([ada, grace])
    expect(index.query({ search: 'lovelace' })[0]).toBe(ada)
    const suspended = { ...ada, status: 'SUSPENDED' as const }
    index.replace(ada, suspended)
    // Same name, email and role: no list changes, but the remembered result held the old object.
    expect(index.query({ search: 'lovelace' })[0]).toBe(suspended)
  })

  test('a result read before a change is not rewritten by a later query', () => {
    const index = indexOf([ada, grace])
    const before = [...index.query({ search: 'ace' })]
    index.remove(ada)
    expect(ids(index.query({ search: 'ace' }))).toEqual(['usr_grace'])
    expect(ids(before)).toEqual(['usr_ada', 'usr_grace'])
  })
})

function addNew(population: Population, index: MemberIndex): void {
  const user = population.makeUser()
  population.live.push(user)
  index.add(user)
}

/** One random change, applied to the index the way the store does it: remove, mutate, add. */
function mutate(population: Population, index: MemberIndex, deleteWeight: number): void {
  const { random } = population
  const position = population.pickLive()
  const dice = random()
  if (position === undefined || dice < 0.25) {
    const added = population.deleted.length > 0 && random() < 0.3 ? population.deleted.pop()! : population.makeUser()
    population.live.push(added)
    index.add(added)
  } else if (dice < 0.25 + deleteWeight) {
    const user = population.takeLive(position)
    index.remove(user)
    population.deleted.push(user)
  } else if (dice < 0.85) {
    const user = population.live[position]!
    index.remove(user)
    const field = population.pick(['name', 'name', 'role', 'email', 'status'] as const)
    if (field === 'name') user.name = population.makeName()
    if (field === 'role') user.role = population.pickRole()
    if (field === 'email') user.email = population.makeUser().email
    if (field === 'status') user.status = user.status === 'ACTIVE' ? 'SUSPENDED' : 'ACTIVE'
    index.add(user)
  } else {
    // The store may also swap in a new object for the same id; the index copes with a new createdAt too.
    const user = population.live[position]!
    const copy = { ...user, name: random() < 0.5 ? user.name : population.makeName() }
    if (random() < 0.2) copy.createdAt = population.makeUser().createdAt
    index.remove(user)
    population.live[position] = copy
    index.add(copy)
  }
}

function expectSameAsReference(population: Population, index: MemberIndex, filter: MemberFilter): void {
  const found = index.query(filter)
  const expected = referenceQuery(population.live, filter)
  expect(ids(found), JSON.stringify(filter)).toEqual(ids(expected))
  // The very objects the store holds, never a stale one that had the same id.
  expect(found.every((user, position) => user === expected[position])).toBe(true)
}

describe('differential test against a brute-force filter', () => {
  test.each<[string, MemberIndexOptions]>([
    ['the default index', {}],
    ['bigrams only, without memo', { maxGramLength: 2, memoSize: 0 }],
  ])('results equal the reference through random changes: %s', (_, options) => {
    const population = new Population(mulberry32(20240108))
    const index = new MemberIndex(options)
    // A bulk load, in random order.
    for (let count = 0; count < 2000; count++) addNew(population, index)
    expectSameAsReference(population, index, {})
    // Small batches between queries, as PATCH and DELETE requests make them; deleted members come back.
    for (let step = 0; step < 1200; step++) {
      const batch = 1 + Math.floor(population.random() * 3)
      for (let change = 0; change < batch; change++) mutate(population, index, 0.2)
      expectSameAsReference(population, index, population.makeFilter())
    }
    // A batch with enough new members to rebuild, mixed with other changes.
    for (let change = 0; change < 600; change++) {
      if (change % 2 === 0) addNew(population, index)
      else mutate(population, index, 0.3)
    }
    expectSameAsReference(population, index, population.makeFilter())
    // A wave of deletions that leaves many deleted ranks behind.

    for (let step = 0; step < 300; step++) {
      for (let change = 0; change < 4; change++) mutate(population, index, 0.74)
      expectSameAsReference(population, index, population.makeFilter())
    }
    for (let step = 0; step < 100; step++) expectSameAsReference(population, index, population.makeFilter())
    expect(index.size).toBe(population.live.length)
  })
})

test("under the users API's own changes (a load, then PATCHes and DELETEs between reads, reads repeated): the reference's answers", () => {
  expect(firstDifferenceUnderTheApi(() => new MemberIndex())).toBeUndefined()
})
