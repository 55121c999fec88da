import { describe, expect, test } from 'vitest'
import { BoundedMap } from '../../src/proxy/bounded-map.js'
import type { FindingEntry } from '../../src/proxy/finding-entry.js'
import { FindingLog } from '../../src/proxy/finding-log.js'
import { Knowledge } from '../../src/proxy/knowledge.js'
import { startProxy } from '../../src/proxy/start-proxy.js'
import { UserBook } from '../../src/proxy/user-book.js'
import { ConflictBook } from '../../src/proxy/conflict-book.js'
import { WholeListBook, WHOLE_LIST_USERS, type UnfilteredPage } from '../../src/proxy/whole-list-book.js'
import { WriteHistory } from '../../src/proxy/write-history.js'

// Issue 23: "memory stays bounded however long it runs". Everything the proxy keeps has a limit, and
// what it forgets makes it say less, never something false.

function entry(id: number): FindingEntry {
  return {
    id,
    at: '',
    kind: 'violation',
    check: 'c',
    rule: 'r',
    sentences: [],
    message: '',
    method: 'GET',
    target: '/',
    status: 200,
    report: '',
    curl: '',
  }
}

describe('what the proxy keeps is bounded', () => {
  test('the log keeps the last findings and counts them all', () => {
    const log = new FindingLog(3)
    for (let id = 1; id <= 1000; id++) log.add(entry(id))
    expect(log.recent().map((kept) => kept.id)).toEqual([998, 999, 1000])
    expect(log.counts.violations).toBe(1000)
    expect(log.counts.checks['c']?.count).toBe(1000)
  })

  test('a bounded map forgets the least recently written first', () => {
    const map = new BoundedMap<number, number>(2)
    map.set(1, 1).set(2, 2).set(1, 1).set(3, 3)
    expect([...map.keys()]).toEqual([1, 3])
  })

  test('users past the limit are forgotten, and nothing is then said about them', () => {
    const book = new UserBook(5)
    book.see({ id: 'first', role: 'CLIENT_OWNER', organizationId: 'org' }, { startedAt: 1, endedAt: 2 }, 0)
    for (let index = 0; index < 50; index++)
      book.see({ id: `u${index}`, organizationId: 'org' }, { startedAt: 3 + index, endedAt: 3 + index }, 0)
    expect(book.organizationOf('first')).toBeUndefined()
    expect(book.sureSnapshot('first', { startedAt: 100, endedAt: 101 })).toBeUndefined()
  })

  test('a write forgotten to stay bounded makes every older snapshot unsure', () => {
    const writes = new WriteHistory(2)
    writes.begin('a', 10)
    writes.end('a', 10, 11, false)
    expect(writes.changedBetween('b', 5, 20)).toBe(false)
    writes.begin('b', 12)
    writes.begin('c', 13) // 'a' is forgotten: before its end, anything may have changed
    expect(writes.changedBetween('z', 5, 20)).toBe(true)
    expect(writes.changedBetween('z', 12, 20)).toBe(false)
  })

  test('callers past the limit are forgotten: their tokens leave memory too', () => {
    const knowledge = new Knowledge({ users: 10, callers: 2, lists: 2 })
    for (const token of ['t1', 't2', 't3']) knowledge.callers.learnFromMe(token, `usr_${token}`, 'org')
    expect(knowledge.callers.tokens()).toEqual(['t2', 't3'])
  })

  test('whole lists: 16 organizations kept, none of more than 1,000 users', () => {
    const book = new WholeListBook()
    const page = (organizationId: string, total: number): UnfilteredPage => ({
      organizationId,
      page: 1,
      limit: 100,
      total,
      items: Array.from({ length: Math.min(total, 100) }, (_, index) => ({ id: `${organizationId}-${index}` })),
      startedAt: 1,
      endedAt: 2,
      seenAt: 0,
      reader: 'a caller',
    })
    const nothingWritten = (): boolean => false
    for (let index = 0; index < 100; index++) book.record(page(`org${index}`, 1), nothingWritten)
    expect(book.whole('org0')).toBeUndefined()
    expect(book.whole('org99')?.users).toHaveLength(1)
    // One page of a list longer than the limit is never the first step of a whole one.
    book.record(page('big', WHOLE_LIST_USERS + 1), nothingWritten)
    expect(book.whole('big')).toBeUndefined()
  })

  test("claims and conflicts are bounded: one of each kind a user, users and callers as the knowledge's", () => {
    const knowledge = new Knowledge({ users: 5, callers: 2, lists: 2 })
    for (let index = 0; index < 50; index++)
      knowledge.claims.statusSet.set(`usr_${index}`, { startedAt: 1, endedAt: 2, request: '' })
    expect(knowledge.claims.statusSet.size).toBe(5)
    const conflicts = new ConflictBook(2)
    for (const token of ['t1', 't2', 't3'])
      for (let index = 0; index < 20; index++)
        conflicts.remember(token, { userId: 'u', patch: {}, startedAt: index, endedAt: index, request: '' })
    expect(conflicts.of('t1')).toEqual([])
    expect(conflicts.of('t3')).toHaveLength(8)
  })

  test('live pages are capped: the seventeenth is refused, 503', async () => {
    const proxy = await startProxy({ upstream: 'http://127.0.0.1:9', port: 0 })
    const controllers: AbortController[] = []
    try {
      for (let index = 0; index < 16; index++) {
        const controller = new AbortController()
        controllers.push(controller)
        const stream = await fetch(`${proxy.url}/__proxy/events`, { signal: controller.signal })
        expect(stream.status).toBe(200)
      }
      const refused = await fetch(`${proxy.url}/__proxy/events`)
      expect(refused.status).toBe(503)
      expect(((await refused.json()) as { code: string }).code).toBe('TOO_MANY_STREAMS')
    } finally {
      for (const controller of controllers) controller.abort()
      await proxy.close()
    }
  })
})
