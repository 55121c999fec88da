import { afterEach, beforeEach, expect, test } from 'vitest'
import type { MockState } from '../../src/domain/mock-state.js'
import type { User, UserPatch } from '../../src/domain/user.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import type { ApiRequest, Problem, UserEnvelope, UserList } from '../support/api-exchange.js'
import { sendFromConnections, type TimedAnswer } from '../support/send-from-connections.js'
import { replaySerially, type AnsweredPatch } from '../support/serial-order.js'

// Writes to one user from many connections at once, over real sockets: every answer is one the
// contract allows, and the state they leave is the state after some serial order of them.

/** Connections writing at once, and requests each sends one after another. */
const CONNECTIONS = 60
const PER_CONNECTION = 3

let mock: RunningMock
let user: User

beforeEach(async () => {
  mock = await startMock({ users: 5, disposable: 1 })
  user = await readUser(mock.target.disposable[0]!.id)
})

afterEach(async () => {
  await mock.close()
})

async function readUser(id: string): Promise<User> {
  const response = await fetch(`${mock.url}/api/users/${id}`, { headers: { authorization: 'Bearer owner-token' } })
  return ((await response.json()) as UserEnvelope).data
}

async function stateOf(): Promise<MockState> {
  return (await (await fetch(`${mock.url}/__mock/state`)).json()) as MockState
}

async function listTotal(): Promise<number> {
  const response = await fetch(`${mock.url}/api/users?limit=1`, { headers: { authorization: 'Bearer owner-token' } })
  return ((await response.json()) as UserList).meta.total
}

function patchOf(body: UserPatch): ApiRequest {
  return { method: 'PATCH', url: `/api/users/${user.id}`, token: 'owner-token', body }
}

function deleteOf(): ApiRequest {
  return { method: 'DELETE', url: `/api/users/${user.id}`, token: 'owner-token' }
}

/** The 200 answers to PATCHes, as the serial-order check reads them. */
function answeredPatches(answers: TimedAnswer[]): AnsweredPatch[] {
  return answers
    .filter((answer) => answer.request.method === 'PATCH' && answer.status === 200)
    .map((answer) => ({
      patch: answer.request.body as UserPatch,
      result: (answer.body as UserEnvelope).data,
      startedAt: answer.startedAt,
      answeredAt: answer.answeredAt,
    }))
}

/** The user in a state, as the API shows it (without the token the state file keeps). */
function storedUser(state: MockState): User {
  const found = state.users.find((candidate) => candidate.id === user.id)
  if (!found) throw new Error(`${user.id} is not in the state.`)
  return Object.fromEntries(Object.entries(found).filter(([key]) => key !== 'token')) as User
}

/** The state without one user: what every other record must still be. */
function othersIn(state: MockState): MockState {
  return { ...state, users: state.users.filter((stored) => stored.id !== user.id) }
}

function summary(answers: TimedAnswer[]): string {
  return answers.map((answer) => `${answer.request.method} → ${answer.status ?? answer.error}`).join(', ')
}

test('concurrent renames of one user from 60 connections: all 200, and the stored name is the last one by updatedAt', async () => {
  const before = await stateOf()
  const lists = Array.from({ length: CONNECTIONS }, (_, connection) =>
    Array.from({ length: PER_CONNECTION }, (_, turn) => patchOf({ name: `Writer ${connection}-${turn}` })),
  )
  const answers = await sendFromConnections(mock.url, lists)

  expect(
    answers.filter((answer) => answer.status !== 200),
    summary(answers),
  ).toEqual([])
  const last = replaySerially(user, answeredPatches(answers))
  // Every rename changed the name, so each one has an updatedAt of its own.
  expect(new Set(answers.map((answer) => (answer.body as UserEnvelope).data.updatedAt)).size).toBe(answers.length)
  const after = await stateOf()
  const stored = storedUser(after)
  expect(stored).toEqual(last)
  expect(othersIn(after)).toEqual(othersIn(before))
})

test('concurrent PATCHes and DELETEs of one user: one DELETE 204, PATCHes 200 before it and 404 after, and the user is gone', async () => {
  const before = await stateOf()
  const totalBefore = await listTotal()
  const token = mock.target.disposable[0]!.token
  // Each connection sends a rename and a delete in its own order, then one more rename.
  const lists = Array.from({ length: CONNECTIONS }, (_, connection) => {
    const rename = patchOf({ name: `Writer ${connection}` })
    const requests = connection % 2 === 0 ? [rename, deleteOf()] : [deleteOf(), rename]
    return [...requests, patchOf({ name: `Late writer ${connection}` })]
  })
  const answers = await sendFromConnections<UserEnvelope | Problem>(mock.url, lists)

  const patches = answers.filter((answer) => answer.request.method === 'PATCH')
  const deletes = answers.filter((answer) => answer.request.method === 'DELETE')
  // CONTRACT §4: PATCH 200 while the user exists, DELETE 204 once, then 404 USER_NOT_FOUND for both.
  expect(
    patches.filter((answer) => answer.status !== 200 && answer.status !== 404),
    summary(patches),
  ).toEqual([])
  expect(
    deletes.filter((answer) => answer.status !== 204 && answer.status !== 404),
    summary(deletes),
  ).toEqual([])
  const deleted = deletes.filter((answer) => answer.status === 204)
  expect(deleted).toHaveLength(1)
  for (const answer of answers.filter((candidate) => candidate.status === 404)) {
    expect((answer.body as Problem).code).toBe('USER_NOT_FOUND')
  }
  const theDelete = deleted[0]!
  // Serial: no 404 was answered before the 204 DELETE was sent, no 200 was sent after it was answered.
  const notFound = answers.filter((answer) => answer.status === 404)
  expect(notFound.filter((answer) => answer.answeredAt < theDelete.startedAt)).toEqual([])
  const renamed = patches.filter((answer) => answer.status === 200)
  expect(renamed.filter((answer) => answer.startedAt > theDelete.answeredAt)).toEqual([])
  replaySerially(user, answeredPatches(answers))

  const after = await stateOf()
  expect(after.users.map((stored) => stored.id)).not.toContain(user.id)
  expect(after).toEqual(othersIn(before))
  expect(await listTotal()).toBe(totalBefore - 1)
  const theirs = await fetch(`${mock.url}/api/users/me`, { headers: { authorization: `Bearer ${token}` } })
  expect(theirs.status).toBe(401)
})

test('concurrent PATCHes of name, role and status of one user: each field ends as one successful PATCH set it', async () => {
  const before = await stateOf()
  const roles = ['CLIENT_ADMIN', 'BOT_USER', 'CLIENT_VIEWER'] as const
  const statuses = ['SUSPENDED', 'ACTIVE'] as const
  const lists = Array.from({ length: CONNECTIONS }, (_, connection) =>
    Array.from({ length: PER_CONNECTION }, (_, turn): ApiRequest => {
      const index = connection * PER_CONNECTION + turn
      if (connection % 3 === 0) return patchOf({ name: `Writer ${index}` })
      if (connection % 3 === 1) return patchOf({ role: roles[index % roles.length]! })
      return patchOf({ status: statuses[index % statuses.length]! })
    }),
  )
  const answers = await sendFromConnections(mock.url, lists)

  expect(
    answers.filter((answer) => answer.status !== 200),
    summary(answers),
  ).toEqual([])
  const patches = answeredPatches(answers)
  // updatedAt moves on every change and never back; a PATCH to the current value changes nothing,
  // updatedAt included (CONTRACT §4), so its answer repeats the user's state at its turn.
  const last = replaySerially(user, patches)
  // Every rename changes the name: at least that many distinct updatedAt values.
  const renames = patches.filter((answer) => answer.patch.name !== undefined).length
  expect(new Set(patches.map((answer) => answer.result.updatedAt)).size).toBeGreaterThanOrEqual(renames)

  const after = await stateOf()
  const stored = storedUser(after)
  expect(stored).toEqual(last)
  expect(patches.map((answer) => answer.patch.name)).toContain(stored.name)
  expect(patches.map((answer) => answer.patch.role)).toContain(stored.role)
  expect(patches.map((answer) => answer.patch.status)).toContain(stored.status)
  expect(othersIn(after)).toEqual(othersIn(before))
})
