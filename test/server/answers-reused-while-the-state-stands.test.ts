import { describe, expect, test } from 'vitest'
import type { UserStore } from '../../src/domain/user-store.js'
import type { EngineRequest, EngineResponse } from '../../src/engine/engine-request.js'
import { cacheAnswers } from '../../src/mock-instance/answer-cache.js'
import { createUsersApiMock } from '../../src/mock-instance/create-users-api-mock.js'

// The mock reuses its answers to GET and HEAD while the state stands (issue 21): the same request on the
// same state gets the same answer without the engine, and never an answer of a state that has moved. An
// answer is kept once asked twice, and the kept ones are bounded by count and by size (issue 36).

const OWNER = { authorization: 'Bearer owner-token' }
const me = (headers: Record<string, string> = OWNER): EngineRequest => ({
  method: 'GET',
  url: '/api/users/me',
  headers,
})

/** An engine that counts its calls and answers with the store's revision, over a store whose revision moves. */
function countingEngine() {
  const state = { store: { revision: 0 } as unknown as UserStore }
  let calls = 0
  const engine = async (request: EngineRequest): Promise<EngineResponse> => {
    calls += 1
    return { status: 200, headers: {}, body: `${request.url} at ${state.store.revision}` }
  }
  const bump = (): void => {
    ;(state.store as unknown as { revision: number }).revision += 1
  }
  return { state, engine, bump, calls: () => calls }
}

describe('answers reused while the state stands', () => {
  test('the same GET on the same state is answered by the engine twice (asked once, it is not kept), then from the cache', async () => {
    const { state, engine, calls } = countingEngine()
    const { handle } = cacheAnswers(engine, () => state.store, { simulates: false })
    await handle(me())
    const second = await handle(me())
    expect(calls()).toBe(2)
    expect(await handle(me())).toBe(second)
    expect(await handle(me())).toBe(second)
    expect(calls()).toBe(2)
  })

  test('answers asked once are never kept, however many: 60,000 distinct searches keep nothing', async () => {
    const { state, engine, calls } = countingEngine()
    const { handle, reuse } = cacheAnswers(engine, () => state.store, { simulates: false })
    const search = (index: number) => ({ ...me(), url: `/api/users?search=${index}` })
    for (let index = 0; index < 60_000; index += 1) await handle(search(index))
    expect(calls()).toBe(60_000)
    expect(Array.from({ length: 60_000 }, (_, index) => reuse(search(index))).filter(Boolean)).toEqual([])
  })

  test('the kept answers hold 8 Mi characters at most, the oldest going first; a larger one is never kept', async () => {
    const state = { store: { revision: 0 } as unknown as UserStore }
    let calls = 0
    const engine = async (request: EngineRequest): Promise<EngineResponse> => {
      calls += 1
      return {
        status: 200,
        headers: {},
        body: 'x'.repeat(Number(new URL(request.url, 'http://x').searchParams.get('mib')) * 2 ** 20),
      }
    }
    const { handle, reuse } = cacheAnswers(engine, () => state.store, { simulates: false })
    const sized = (page: number, mib: number) => ({ ...me(), url: `/api/users?page=${page}&mib=${mib}` })
    for (const page of [1, 2, 3]) for (let time = 0; time < 2; time += 1) await handle(sized(page, 3)) // 9 MiB asked twice each
    expect([1, 2, 3].map((page) => reuse(sized(page, 3)) !== undefined)).toEqual([false, true, true])
    for (let time = 0; time < 3; time += 1) await handle(sized(4, 9))
    expect(calls).toBe(9)
    expect(reuse(sized(4, 9))).toBeUndefined()
  })

  test('a change, a reset or another store is never answered from before it', async () => {
    const { state, engine, bump, calls } = countingEngine()
    const { handle } = cacheAnswers(engine, () => state.store, { simulates: false })
    await handle(me())
    bump()
    expect((await handle(me())).body).toBe('/api/users/me at 1')
    state.store = { revision: 1 } as unknown as UserStore
    await handle(me())
    expect(calls()).toBe(3)
  })

  test('a state that moves while the engine answers keeps nothing', async () => {
    const { state, bump } = countingEngine()
    let called = 0
    const engine = async (): Promise<EngineResponse> => {
      called += 1
      const answer = { status: 200, headers: {}, body: `at ${state.store.revision}` }
      bump() // another request's PATCH lands before this answer is handed back
      return answer
    }
    const { handle } = cacheAnswers(engine, () => state.store, { simulates: false })
    await handle(me())
    await handle(me())
    expect(called).toBe(2)
  })

  test('the caller, the method and the target are part of the key; Prefer, a body and writes are never kept', async () => {
    const { state, engine, calls } = countingEngine()
    const { handle } = cacheAnswers(engine, () => state.store, { simulates: false })
    await handle(me())
    await handle(me({ authorization: 'Bearer viewer-token' }))
    await handle({ ...me(), method: 'HEAD' })
    await handle({ ...me(), url: '/api/users/me?x=1' })
    expect(calls()).toBe(4)
    for (let round = 0; round < 2; round += 1) {
      await handle(me({ ...OWNER, prefer: 'code=404' }))
      await handle({ ...me(), body: new TextEncoder().encode('{}') })
      await handle({ ...me(), method: 'PATCH' })
    }
    expect(calls()).toBe(10)
  })

  test('reuse() gives the kept answer of this very request on this state, and nothing once the state moved', async () => {
    const { state, engine, bump } = countingEngine()
    const { handle, reuse } = cacheAnswers(engine, () => state.store, { simulates: false })
    expect(reuse(me())).toBeUndefined()
    await handle(me())
    expect(reuse(me())).toBeUndefined()
    const answer = await handle(me())
    expect(reuse(me())).toBe(answer)
    expect(reuse(me({ authorization: 'Bearer viewer-token' }))).toBeUndefined()
    expect(reuse({ ...me(), method: 'PATCH' })).toBeUndefined()
    bump()
    expect(reuse(me())).toBeUndefined()
  })

  test('while the mock simulates latency or failures, every request reaches the engine', async () => {
    const { state, engine, calls } = countingEngine()
    const { handle } = cacheAnswers(engine, () => state.store, { simulates: true })
    await handle(me())
    await handle(me())
    expect(calls()).toBe(2)
  })

  test('at most 1,000 answers are kept, the oldest going first when none was read again', async () => {
    const { state, engine, calls } = countingEngine()
    const { handle } = cacheAnswers(engine, () => state.store, { simulates: false })
    for (let index = 0; index <= 1_000; index += 1)
      for (let time = 0; time < 2; time += 1) await handle({ ...me(), url: `/api/users?page=${index + 1}` })
    expect(calls()).toBe(2_002)
    await handle({ ...me(), url: '/api/users?page=1001' })
    expect(calls()).toBe(2_002)
    await handle({ ...me(), url: '/api/users?page=1' })
    expect(calls()).toBe(2_003)
  })

  test('an answer read again outlives older answers nobody read again, and the newest answer is never the one to go', async () => {
    const { state, engine, calls } = countingEngine()
    const { handle, reuse } = cacheAnswers(engine, () => state.store, { simulates: false })
    const page = (index: number) => ({ ...me(), url: `/api/users?page=${index}` })
    // Asked twice: kept.
    const keep = async (index: number) => {
      await handle(page(index))
      await handle(page(index))
    }
    for (let index = 1; index <= 1_000; index += 1) await keep(index)
    expect(reuse(page(1))).toBeDefined()
    await keep(1_001)
    expect(reuse(page(1))).toBeDefined()
    expect(reuse(page(2))).toBeUndefined()
    expect(reuse(page(1_001))).toBeDefined()
    // Every kept answer read again: the one just kept still stays, an older one goes.
    for (let index = 3; index <= 1_001; index += 1) reuse(page(index))
    reuse(page(1))
    await keep(1_002)
    expect(reuse(page(1_002))).toBeDefined()
    expect([1, ...Array.from({ length: 999 }, (_, at) => at + 3)].filter((index) => !reuse(page(index)))).toHaveLength(
      1,
    )
    expect(calls()).toBe(2_004)
  })
})

describe('through a whole mock', () => {
  test('a rename is seen at once by every reader of the user, the list, and after a reset', async () => {
    const mock = await createUsersApiMock()
    const list = { method: 'GET', url: '/api/users?search=ada', headers: OWNER }
    await mock.handle(list)
    const before = await mock.handle(list)
    expect(await mock.handle(list)).toBe(before)
    const admin = JSON.parse((await mock.handle(me({ authorization: 'Bearer admin-token' }))).body ?? '{}') as {
      data: { id: string; name: string }
    }
    const renamed = await mock.handle({
      method: 'PATCH',
      url: `/api/users/${admin.data.id}`,
      headers: { ...OWNER, 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ name: 'Ada Renamed' })),
    })
    expect(renamed.status).toBe(200)
    const read = await mock.handle({ method: 'GET', url: `/api/users/${admin.data.id}`, headers: OWNER })
    expect(JSON.parse(read.body ?? '{}').data.name).toBe('Ada Renamed')
    expect((await mock.handle(me({ authorization: 'Bearer admin-token' }))).body).toContain('Ada Renamed')
    mock.reset()
    expect((await mock.handle(me({ authorization: 'Bearer admin-token' }))).body).toContain(admin.data.name)
  })
})
