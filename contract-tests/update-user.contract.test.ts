import { setTimeout as sleep } from 'node:timers/promises'
import { describe, test, type TestContext } from 'vitest'
import type { Exchange } from '../src/contract/exchange.js'
import type { DisposableUser } from '../src/contract/target.js'
import { userOf, type ApiUser } from './support/api-user.js'
import { expectProblem, expectValidationProblem } from './support/expect-problem.js'
import { expectUnauthenticated } from './support/expect-unauthenticated.js'
import { findUser, listUsers, readUser } from './support/read-users.js'
import { restoreAfter } from './support/restore-user.js'
import { sendWithoutContentType } from './support/send-without-content-type.js'
import { expectRule, expectStatus, needActor, needDisposable, needWrites, send } from './support/suite.js'
import { userPath } from './support/user-paths.js'

// CONTRACT §4, PATCH /api/users/{id}, aimed at this file's disposable user and undone after each check.
// Sequential: every check changes the same user.

describe('name, role and status are the updatable attributes', () => {
  test('[core] PATCH sets the name of a user: 200, and the user sees the new name', async (context) => {
    const user = await prepare(context)
    expectStatus(await patch(user, { name: 'Renamed By Owner' }), 200, 'PATCH sets name (docs/contract.md §4)')
    const me = await send({ as: user, path: '/api/users/me' })
    expectRule(
      me,
      userOf(me).name === 'Renamed By Owner',
      'PATCH sets name (docs/contract.md §4)',
      `Received: ${userOf(me).name}`,
    )
  })

  test('[core] PATCH sets the role of a user: 200, and the user has the new role', async (context) => {
    const user = await prepare(context)
    expectStatus(await patch(user, { role: 'CLIENT_ADMIN' }), 200, 'PATCH sets role (docs/contract.md §4)')
    const me = await send({ as: user, path: '/api/users/me' })
    expectRule(
      me,
      userOf(me).role === 'CLIENT_ADMIN',
      'PATCH sets role (docs/contract.md §4)',
      `Received: ${userOf(me).role}`,
    )
  })

  test('[core] PATCH sets the status of a user: 200, and the token of a SUSPENDED user is refused', async (context) => {
    const user = await prepare(context)
    expectStatus(await patch(user, { status: 'SUSPENDED' }), 200, 'PATCH sets status (docs/contract.md §1, §4)')
    const me = await send({ as: user, path: '/api/users/me' })
    expectUnauthenticated(me, true, "A SUSPENDED user's token is a 401 (docs/contract.md §2)")
  })
})

const ASTRAL = '\u{1D49C}' // 𝒜: one code point, two UTF-16 code units

const BAD_BODIES: Array<[string, string]> = [
  ['no body', ''],
  ['a body that is not JSON', '{"name":'],
  ['a JSON array', '[{"name":"Ada"}]'],
  ['a JSON string', '"Ada"'],
  ['JSON null', 'null'],
  ['an empty object', '{}'],
  ['an unknown key beside a valid one', JSON.stringify({ name: 'Ada', email: 'ada@example.org' })],
  ['a name that is not a string', JSON.stringify({ name: 42 })],
  ['a null name', JSON.stringify({ name: null })],
  ['an empty name', JSON.stringify({ name: '' })],
  ['a name of white space only', JSON.stringify({ name: ' \t ' })],
  ['a name of 101 characters', JSON.stringify({ name: 'a'.repeat(101) })],
  ['a name of 101 code points outside the BMP', JSON.stringify({ name: ASTRAL.repeat(101) })],
  ['a lowercase role', JSON.stringify({ role: 'client_admin' })],
  ['an unknown role', JSON.stringify({ role: 'SUPERUSER' })],
  ['status INVITED', JSON.stringify({ status: 'INVITED' })],
  ['a lowercase status', JSON.stringify({ status: 'suspended' })],
]

describe('the body is validated: 400 with errors, and nothing changes', () => {
  for (const [label, body] of BAD_BODIES) {
    test(`[profile] a PATCH with ${label} is a 400`, async (context) => {
      const user = await prepare(context)
      const before = await readUser('owner', user.id)
      const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id), body, headers: JSON_TYPE })
      expectValidationProblem(exchange, 'body', `A PATCH with ${label} is a 400 (docs/contract.md §4)`)
      await expectUnchanged(before)
    })
  }

  test("[profile] a viewer's PATCH with a bad body is a 400, not a 403: validation comes first", async (context) => {
    const user = await prepare(context)
    needActor(context, 'viewer')
    const exchange = await send({ as: 'viewer', method: 'PATCH', path: userPath(user.id), json: { role: 'nope' } })
    expectValidationProblem(
      exchange,
      'body',
      'The order of checks: validation (400) before permission (403) (docs/contract.md §3)',
    )
  })

  test('[profile] a name of 100 characters with white space around it is accepted, stored trimmed', async (context) => {
    const user = await prepare(context)
    const name = 'n'.repeat(100)
    const exchange = await patch(user, { name: `  ${name}\t` })
    expectStatus(exchange, 200, 'A name is 1–100 characters after trimming (docs/contract.md §1)')
    expectRule(
      exchange,
      userOf(exchange).name === name,
      'Names are stored trimmed (docs/contract.md §1)',
      `Received: ${JSON.stringify(userOf(exchange).name)}`,
    )
  })

  test('[profile] a name of 100 code points is accepted, also outside the BMP', async (context) => {
    const user = await prepare(context)
    const name = ASTRAL.repeat(100)
    const exchange = await patch(user, { name })
    expectStatus(exchange, 200, 'A name is 1–100 Unicode code points (docs/contract.md §1)')
    expectRule(
      exchange,
      userOf(exchange).name === name,
      'A name is stored as sent, trimmed (docs/contract.md §1)',
      `Received: ${userOf(exchange).name}`,
    )
  })
})

describe('the body is JSON: anything else is a 415', () => {
  const cases: Array<[string, (user: DisposableUser) => Promise<Exchange>]> = [
    ['Content-Type: text/plain', (user) => sendAs(user, 'text/plain')],
    ['Content-Type: application/merge-patch+json', (user) => sendAs(user, 'application/merge-patch+json')],
    [
      'no Content-Type',
      (user) => sendWithoutContentType({ as: 'owner', method: 'PATCH', path: userPath(user.id), body: RENAME_BODY }),
    ],
  ]
  for (const [label, sendIt] of cases) {
    test(`[profile] a JSON body sent with ${label} is a 415`, async (context) => {
      const user = await prepare(context)
      const before = await readUser('owner', user.id)
      expectProblem(
        await sendIt(user),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `A body sent with ${label} is a 415 (docs/contract.md §4)`,
      )
      await expectUnchanged(before)
    })
  }

  test('[profile] Content-Type: application/json; charset=utf-8 is accepted', async (context) => {
    const user = await prepare(context)
    const exchange = await sendAs(user, 'application/json; charset=utf-8')
    expectStatus(exchange, 200, 'Parameters such as charset are fine (docs/contract.md §4)')
    expectRule(
      exchange,
      userOf(exchange).name === 'Renamed With Charset',
      'PATCH sets name (docs/contract.md §4)',
      `Received: ${userOf(exchange).name}`,
    )
  })
})

describe('what a PATCH changes', () => {
  test('[profile] a name with white space around it is stored trimmed', async (context) => {
    const user = await prepare(context)
    const exchange = await patch(user, { name: ' \t Trimmed Name \n ' })
    expectStatus(exchange, 200, 'A name with white space around it is valid (docs/contract.md §1)')
    const rule = 'Names are stored trimmed (docs/contract.md §1)'
    expectRule(
      exchange,
      userOf(exchange).name === 'Trimmed Name',
      rule,
      `Received: ${JSON.stringify(userOf(exchange).name)}`,
    )
    const read = await readUser('owner', user.id)
    expectRule(exchange, read.name === 'Trimmed Name', rule, `Received on GET: ${JSON.stringify(read.name)}`)
  })

  test('[profile] setting every field to its current value changes nothing: updatedAt stays', async (context) => {
    const user = await prepare(context)
    const before = await readUser('owner', user.id)
    await sleep(5) // so that a wrongly moved updatedAt would show
    const exchange = await patch(user, { name: before.name, role: before.role, status: before.status })
    expectStatus(exchange, 200, 'Setting a field to the value it has is allowed (docs/contract.md §4)')
    expectSameUpdatedAt(
      exchange,
      before,
      'Setting a field to the value it has changes nothing: updatedAt stays (docs/contract.md §4)',
    )
  })

  test('[profile] a name that differs only by surrounding white space is a no-op: updatedAt stays', async (context) => {
    const user = await prepare(context)
    const before = await readUser('owner', user.id)
    await sleep(5)
    const exchange = await patch(user, { name: `  ${before.name}\t` })
    expectStatus(exchange, 200, 'A name with white space around it is valid (docs/contract.md §1)')
    const rule = 'A name that differs only by surrounding white space is a no-op (docs/contract.md §4)'
    expectRule(
      exchange,
      userOf(exchange).name === before.name,
      rule,
      `Received: ${JSON.stringify(userOf(exchange).name)}`,
    )
    expectSameUpdatedAt(exchange, before, rule)
  })

  test('[profile] a real change moves updatedAt forward and keeps createdAt', async (context) => {
    const user = await prepare(context)
    const before = await readUser('owner', user.id)
    await sleep(5) // updatedAt has millisecond precision: make sure a millisecond passed
    const exchange = await patch(user, { name: `${before.name} Changed` })
    expectStatus(exchange, 200, 'PATCH sets name (docs/contract.md §4)')
    const after = userOf(exchange)
    const rule = 'updatedAt moves on every PATCH that changes a field; createdAt never changes (docs/contract.md §1)'
    const moved = Date.parse(after.updatedAt) > Date.parse(before.updatedAt)
    expectRule(exchange, moved, rule, `Received: updatedAt ${after.updatedAt}\nBefore:   ${before.updatedAt}`)
    expectRule(
      exchange,
      after.createdAt === before.createdAt,
      rule,
      `Received: createdAt ${after.createdAt}\nBefore:   ${before.createdAt}`,
    )
    expectRule(
      exchange,
      Date.parse(after.updatedAt) >= Date.parse(after.createdAt),
      'updatedAt >= createdAt (docs/contract.md §1)',
      `Received: ${after.updatedAt} < ${after.createdAt}`,
    )
  })

  test('[profile] ACTIVE and SUSPENDED change freely into each other', async (context) => {
    const user = await prepare(context)
    for (const status of ['SUSPENDED', 'ACTIVE']) {
      const exchange = await patch(user, { status })
      expectStatus(exchange, 200, 'ACTIVE and SUSPENDED change freely into each other (docs/contract.md §4)')
      expectRule(
        exchange,
        userOf(exchange).status === status,
        'PATCH sets status (docs/contract.md §4)',
        `Received: ${userOf(exchange).status}`,
      )
    }
  })

  test('[profile] a SUSPENDED user is still listed, with their status', async (context) => {
    const user = await prepare(context)
    const before = await readUser('owner', user.id)
    expectStatus(await patch(user, { status: 'SUSPENDED' }), 200, 'An owner may suspend a user (docs/contract.md §3)')
    const page = await listUsers('owner', { search: before.email })
    const listed = page.items.find((item) => item.id === user.id)
    const rule = 'The list holds users of every status (docs/contract.md §4)'
    expectRule(
      page.exchange,
      listed?.status === 'SUSPENDED',
      rule,
      `Received: ${listed ? listed.status : 'not listed'}`,
    )
  })

  test('[profile] the 200 answers the user after the change, and a GET agrees', async (context) => {
    const user = await prepare(context)
    const exchange = await patch(user, { name: 'Answered After Change', role: 'BOT_USER' })
    expectStatus(exchange, 200, 'PATCH sets name and role (docs/contract.md §4)')
    const answered = userOf(exchange)
    const read = await readUser('owner', user.id)
    const rule = 'The 200 is the user after the change (docs/contract.md §4)'
    const holds =
      answered.name === 'Answered After Change' &&
      answered.role === 'BOT_USER' &&
      JSON.stringify(read) === JSON.stringify(answered)
    expectRule(exchange, holds, rule, `Received: ${JSON.stringify(answered)}\nGET:      ${JSON.stringify(read)}`)
  })
})

describe('the state rule', () => {
  test('[profile] the status of an INVITED user cannot be changed: 409', async (context) => {
    needWrites(context)
    needActor(context, 'owner')
    const invited = await findUser((user) => user.status === 'INVITED')
    if (!invited) return context.skip('the organization has no INVITED user')
    // The one PATCH the suite aims at a user that is not disposable: a broken backend might activate
    // this invited user. That is why it is skipped under --read-only.
    const exchange = await send({
      as: 'owner',
      method: 'PATCH',
      path: userPath(invited.id),
      json: { status: 'ACTIVE' },
    })
    expectProblem(
      exchange,
      409,
      'INVALID_TRANSITION',
      'The status of an INVITED user cannot be changed through PATCH (docs/contract.md §4)',
    )
  })
})

const JSON_TYPE = { 'content-type': 'application/json' }
const RENAME_BODY = JSON.stringify({ name: 'Renamed With Charset' })

async function prepare(context: TestContext): Promise<DisposableUser> {
  needWrites(context)
  needActor(context, 'owner')
  const user = needDisposable(context, 'update')
  await restoreAfter(context, user)
  return user
}

function patch(user: DisposableUser, json: Record<string, unknown>): Promise<Exchange> {
  return send({ as: 'owner', method: 'PATCH', path: userPath(user.id), json })
}

function sendAs(user: DisposableUser, contentType: string): Promise<Exchange> {
  return send({
    as: 'owner',
    method: 'PATCH',
    path: userPath(user.id),
    body: RENAME_BODY,
    headers: { 'content-type': contentType },
  })
}

async function expectUnchanged(before: ApiUser): Promise<void> {
  const exchange = await send({ as: 'owner', path: userPath(before.id) })
  expectStatus(exchange, 200, 'A refused PATCH changes nothing (docs/contract.md §4)')
  const after = userOf(exchange)
  const same = JSON.stringify(after) === JSON.stringify(before)
  expectRule(
    exchange,
    same,
    'A refused PATCH changes nothing (docs/contract.md §4)',
    `Received: ${JSON.stringify(after)}\nBefore:   ${JSON.stringify(before)}`,
  )
}

function expectSameUpdatedAt(exchange: Exchange, before: ApiUser, rule: string): void {
  const after = userOf(exchange)
  expectRule(
    exchange,
    after.updatedAt === before.updatedAt,
    rule,
    `Received: updatedAt ${after.updatedAt}\nBefore:   ${before.updatedAt}`,
  )
}
