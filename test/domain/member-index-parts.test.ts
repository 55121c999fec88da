import { describe, expect, test } from 'vitest'
import { PendingChanges, toMember } from '../../src/domain/member-index/member-index-changes.js'
import { RankBits } from '../../src/domain/member-index/member-index-rank-bits.js'
import { MemberFiling } from '../../src/domain/member-index/member-index-filing.js'
import { MemberIndex } from '../../src/domain/member-index/member-index.js'
import { QueryMemo } from '../../src/domain/member-index/member-index-memo.js'
import { RankList } from '../../src/domain/member-index/member-index-rank-list.js'
import type { User } from '../../src/domain/user.js'

// The member index's parts, each held to what it promises the index (test/domain/member-index.test.ts holds the
// whole to a brute-force filter). Whether the index remembers, rebuilds or files one by one changes no
// answer, so only these tests see those parts do their job. The mutation run runs this file too.

function user(id: string, createdAt: string): User {
  return {
    id,
    name: `User ${id}`,
    email: `${id}@example.test`,
    role: 'CLIENT_VIEWER',
    organizationId: 'org_a',
    status: 'ACTIVE',
    createdAt,
    updatedAt: createdAt,
  }
}

describe('MemberIndex options', () => {
  test('grams of 1 to 3 characters, nothing else', () => {
    for (const maxGramLength of [1, 2, 3]) expect(() => new MemberIndex({ maxGramLength })).not.toThrow()
    for (const maxGramLength of [0, 4, Number.NaN])
      expect(() => new MemberIndex({ maxGramLength })).toThrow(/maxGramLength must be 1 to 3/)
  })
})

describe('a bulk build', () => {
  test('files every gram of long names and emails (more than one scratch array holds at first)', () => {
    const index = new MemberIndex()
    const long = (id: string): User => ({
      ...user(id, '2024-01-01T00:00:00.000Z'),
      name: `${'a'.repeat(90)}${id}zq`,
      email: `${'b'.repeat(60)}${id}@example.test`,
    })
    // Over 256 users at once: filed in bulk (member-index.ts).
    const users = Array.from({ length: 300 }, (_, n) => long(`u${String(n).padStart(3, '0')}`))
    for (const one of users) index.add(one)
    expect(index.query({ search: 'u299zq' }).map(({ id }) => id)).toEqual(['u299'])
    expect(index.query({ search: 'u150@' }).map(({ id }) => id)).toEqual(['u150'])
    expect(index.query({ search: 'zq' })).toHaveLength(300)
  })
})

describe('QueryMemo', () => {
  test('computes a key once while it is held, the oldest key going first once full', () => {
    const memo = new QueryMemo<string>(2)
    let computed = 0
    const compute = (value: string) => () => {
      computed++
      return value
    }
    expect(memo.remember('a', compute('A'))).toBe('A')
    expect(memo.remember('a', compute('other'))).toBe('A')
    expect(computed).toBe(1)
    memo.remember('b', compute('B'))
    memo.remember('c', compute('C')) // 'a' goes
    expect(computed).toBe(3)
    expect(memo.remember('b', compute('other'))).toBe('B')
    expect(memo.remember('c', compute('other'))).toBe('C')
    expect(computed).toBe(3)
    expect(memo.remember('a', compute('A again'))).toBe('A again')
    expect(computed).toBe(4)
    memo.clear()
    expect(memo.remember('a', compute('after clear'))).toBe('after clear')
  })

  test('with no room, remembers nothing', () => {
    const memo = new QueryMemo<string>(0)
    let computed = 0
    for (let i = 0; i < 3; i++) memo.remember('a', () => String(++computed))
    expect(computed).toBe(3)
  })
})

describe('PendingChanges', () => {
  test('counts the users not filed yet, one net change a user', () => {
    const changes = new PendingChanges()
    const filed = toMember(user('usr_filed', '2024-01-01T00:00:00.000Z'))
    const fresh = toMember(user('usr_new', '2024-01-02T00:00:00.000Z'))
    const gone = toMember(user('usr_gone', '2024-01-03T00:00:00.000Z'))
    expect(changes.size).toBe(0)
    changes.recordRemove(filed)
    changes.recordAdd(filed) // a PATCH: filed before and after
    changes.recordAdd(fresh)
    changes.recordAdd(gone)
    changes.recordRemove(gone) // added, then removed before it was filed
    expect(changes.size).toBe(3)
    expect(changes.newUserCount).toBe(1)
    changes.recordAdd(gone) // and added again
    expect(changes.newUserCount).toBe(2)
    changes.clear()
    expect(changes.size).toBe(0)
    expect(changes.newUserCount).toBe(0)
  })

  test('past its limit of new users, keeps no change and says everyone is to be filed anew', () => {
    const changes = new PendingChanges(2)
    const members = ['usr_a', 'usr_b', 'usr_c'].map((id, day) =>
      toMember(user(id, `2024-01-0${day + 1}T00:00:00.000Z`)),
    )
    changes.recordAdd(members[0]!)
    changes.recordAdd(members[1]!)
    changes.recordRemove(members[1]!) // a new user gone again: one new user left
    changes.recordAdd(members[1]!)
    expect([changes.size, changes.overflowed]).toEqual([2, false])
    changes.recordAdd(members[2]!)
    expect([changes.size, changes.overflowed]).toEqual([0, true])
    changes.recordRemove(members[0]!)
    expect([changes.size, changes.overflowed]).toEqual([0, true])
    expect(changes.take()).toEqual([])
    expect(changes.overflowed).toBe(false)
  })
})

describe('RankBits', () => {
  test('holds the same ranks as a RankList through adds, deletes and shifts, word edges included', () => {
    let seed = 7
    const random = (below: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return (seed >>> 8) % below
    }
    for (const capacity of [1, 31, 32, 33, 100]) {
      const list = new RankList()
      const bits = RankBits.ofCapacity(capacity)
      for (let step = 0; step < 400; step++) {
        const rank = [0, 31, 32, 63, 64, capacity - 1, capacity, random(capacity + 70)][random(8)]!
        const operation = random(4)
        if (operation === 0) expect(bits.delete(rank), `delete ${rank}`).toBe(list.delete(rank))
        else if (operation === 1) {
          list.shiftFrom(rank)
          bits.shiftFrom(rank)
        } else {
          list.add(rank)
          bits.add(rank)
        }
        expect([...bits.view()], `step ${step} of capacity ${capacity}`).toEqual([...list.view()])
        expect(bits.length).toBe(list.length)
      }
    }
  })

  test('is chosen for a list of more than one rank in 32', () => {
    expect(RankBits.suits(3126, 100_000)).toBe(true)
    expect(RankBits.suits(3125, 100_000)).toBe(false)
  })
})

describe('RankList', () => {
  test('says whether it held the rank it was asked to delete, and how many it holds', () => {
    const list = new RankList()
    for (const rank of [1, 3, 5]) list.add(rank)
    expect(list.length).toBe(3)
    expect(list.delete(4)).toBe(false)
    expect(list.delete(9)).toBe(false)
    expect(list.length).toBe(3)
    expect(list.delete(3)).toBe(true)
    expect(list.length).toBe(2)
    expect([...list.view()]).toEqual([1, 5])
  })
})

describe('MemberFiling', () => {
  test('counts its ranks and the ranks of deleted users, which a rebuild weighs', () => {
    const members = ['a', 'b', 'c'].map((id, day) => toMember(user(`usr_${id}`, `2024-01-0${day + 1}T00:00:00.000Z`)))
    const filing = MemberFiling.build(members, 3)
    expect(filing.rankCount).toBe(3)
    expect(filing.deletedCount).toBe(0)
    filing.unfile(members[1]!)
    expect(filing.rankCount).toBe(3)
    expect(filing.deletedCount).toBe(1)
  })
})
