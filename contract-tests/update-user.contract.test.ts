import { setTimeout as sleep } from 'node:timers/promises'
import { describe } from 'vitest'
import type { Exchange } from '../src/contract/client/exchange.js'
import type { DisposableUser } from '../src/contract/target/target.js'
import { userOf, type ApiUser } from './support/api-user.js'
import { expectProblem, expectValidationProblem } from './support/expect-problem.js'
import { expectUnauthenticated } from './support/expect-unauthenticated.js'
import { findUser, listUsers, readUser } from './support/read-users.js'
import { prepareDisposable } from './support/restore-user.js'
import { sendWithoutContentType } from './support/send-without-content-type.js'
import { expectRule, expectStatus, needActor, needWrites, send, test, undoAfter } from './support/suite.js'
import { userPath } from './support/user-paths.js'
import type { SentenceId } from '../src/contract/rules/contract-sentences.js'
import { covers } from './support/covers.js'

// CONTRACT §4, PATCH /api/users/{id}, aimed at this file's disposable user and undone after each check.
// Sequential: every check changes the same user.

describe('name, role and status are the updatable attributes', () => {
  test(
    '[core] PATCH sets the name of a user: 200, and the user sees the new name',
    covers('§4.patch.attributes'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      expectStatus(await patch(user, { name: 'Renamed By Owner' }), 200, 'PATCH sets name (docs/contract.md §4)')
      const me = await send({ as: user, path: '/api/users/me' })
      expectRule(
        me,
        userOf(me).name === 'Renamed By Owner',
        'PATCH sets name (docs/contract.md §4)',
        `Received: ${userOf(me).name}`,
      )
    },
  )

  test(
    '[core] PATCH sets the role of a user: 200, and the user has the new role',
    covers('§4.patch.attributes'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      expectStatus(await patch(user, { role: 'CLIENT_ADMIN' }), 200, 'PATCH sets role (docs/contract.md §4)')
      const me = await send({ as: user, path: '/api/users/me' })
      expectRule(
        me,
        userOf(me).role === 'CLIENT_ADMIN',
        'PATCH sets role (docs/contract.md §4)',
        `Received: ${userOf(me).role}`,
      )
    },
  )

  test(
    '[core] PATCH sets the status of a user: 200, and the token of a SUSPENDED user is refused',
    covers('§4.patch.attributes', '§1.status.patch', '§2.suspended-token'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      expectStatus(await patch(user, { status: 'SUSPENDED' }), 200, 'PATCH sets status (docs/contract.md §1, §4)')
      const me = await send({ as: user, path: '/api/users/me' })
      expectUnauthenticated(me, true, "A SUSPENDED user's token is a 401 (docs/contract.md §2)")
    },
  )
})

const ASTRAL = '\u{1D49C}' // 𝒜: one code point, two UTF-16 code units

/** The body as a whole: the only place an issue about it can point to ("" in RFC 6901). */
const WHOLE = ['']
/** A body with none of the keys it needs: the whole body, or the keys it lacks. */
const NO_KEY = ['', '/name', '/role', '/status']

/**
 * A label, a body, where its issue may point (docs/contract.md §5), and whether each of its characters
 * goes as one byte (bytes that are not UTF-8).
 */
const BAD_BODIES: Array<[string, string, pointers: string[], latin1?: boolean]> = [
  ['no body', '', WHOLE],
  ['a body that is not JSON', '{"name":', WHOLE],
  // 0xFF is never UTF-8: a decoder that replaces it with U+FFFD would store "Ada \uFFFD".
  ['bytes that are not UTF-8', '{"name":"Ada \xff"}', ['', '/name'], true],
  ['a JSON array', '[{"name":"Ada"}]', WHOLE],
  ['a JSON string', '"Ada"', WHOLE],
  ['JSON null', 'null', WHOLE],
  ['an empty object', '{}', NO_KEY],
  // The key that may not be there, or the object that holds it.
  ['an unknown key beside a valid one', JSON.stringify({ name: 'Ada', email: 'ada@example.org' }), ['/email', '']],
  ['a name that is not a string', JSON.stringify({ name: 42 }), ['/name']],
  ['a null name', JSON.stringify({ name: null }), ['/name']],
  ['an empty name', JSON.stringify({ name: '' }), ['/name']],
  ['a name of white space only', JSON.stringify({ name: ' \t ' }), ['/name']],
  ['a name of 101 characters', JSON.stringify({ name: 'a'.repeat(101) }), ['/name']],
  ['a name of 101 code points outside the BMP', JSON.stringify({ name: ASTRAL.repeat(101) }), ['/name']],
  ['a lowercase role', JSON.stringify({ role: 'client_admin' }), ['/role']],
  ['an unknown role', JSON.stringify({ role: 'SUPERUSER' }), ['/role']],
  ['status INVITED', JSON.stringify({ status: 'INVITED' }), ['/status']],
  ['a lowercase status', JSON.stringify({ status: 'suspended' }), ['/status']],
  // Beside a valid field: the whole body is refused, the valid part is not applied.
  ['a valid name beside a null role', JSON.stringify({ name: 'Ada Beside', role: null }), ['/role']],
  ['a valid role beside a name that is a number', JSON.stringify({ role: 'CLIENT_ADMIN', name: 7 }), ['/name']],
  [
    'a valid name beside a status that is not a string',
    JSON.stringify({ name: 'Ada Beside', status: true }),
    ['/status'],
  ],
  ['a valid status beside a null name', JSON.stringify({ status: 'SUSPENDED', name: null }), ['/name']],
  // Keys every JavaScript object has (a check of `key in allowed` lets them through): unknown keys all the same.
  ['an unknown key called constructor, a built-in member', '{"constructor":"Ada"}', ['/constructor', '']],
  ['an unknown key called hasOwnProperty, a built-in member', '{"hasOwnProperty":true}', ['/hasOwnProperty', '']],
  ['an unknown key called __proto__, a built-in member', '{"__proto__":{}}', ['/__proto__', '']],
  [
    'an unknown key called toString, a built-in member, beside a valid one',
    '{"role":"CLIENT_ADMIN","toString":"Ada"}',
    ['/toString', ''],
  ],
  [
    'an unknown key called __proto__, a built-in member, beside a valid one',
    '{"role":"CLIENT_ADMIN","__proto__":{"status":"SUSPENDED"}}',
    ['/__proto__', ''],
  ],
  [
    'an unknown key called valueOf, a built-in member, beside a valid one',
    '{"status":"SUSPENDED","valueOf":0}',
    ['/valueOf', ''],
  ],
]

describe('the body is validated: 400 with errors, and nothing changes', () => {
  for (const [label, body, pointers, latin1] of BAD_BODIES) {
    test(`[profile] a PATCH with ${label} is a 400`, covers(...badBodySentences(label)), async (context) => {
      const user = await prepareDisposable(context, 'update')
      const before = await readUser('owner', user.id)
      const request = { as: 'owner', method: 'PATCH', path: userPath(user.id), body, headers: JSON_TYPE } as const
      const exchange = await send(latin1 ? { ...request, latin1 } : request)
      expectValidationProblem(exchange, 'body', `A PATCH with ${label} is a 400 (docs/contract.md §4)`)
      expectBodyPointers(exchange, pointers)
      await expectUnchanged(before)
    })
  }

  test(
    "[profile] a viewer's PATCH with a bad body is a 400, not a 403: validation comes first",
    covers('§3.order', '§3.order.examples'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      needActor(context, 'viewer')
      const exchange = await send({ as: 'viewer', method: 'PATCH', path: userPath(user.id), json: { role: 'nope' } })
      expectValidationProblem(
        exchange,
        'body',
        'The order of checks: validation (400) before permission (403) (docs/contract.md §3)',
      )
    },
  )

  test(
    '[profile] a name of 100 characters with white space around it is accepted, stored trimmed',
    covers('§1.name'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      const name = 'n'.repeat(100)
      const exchange = await patch(user, { name: `  ${name}\t` })
      expectStatus(exchange, 200, 'A name is 1–100 characters after trimming (docs/contract.md §1)')
      expectRule(
        exchange,
        userOf(exchange).name === name,
        'Names are stored trimmed (docs/contract.md §1)',
        `Received: ${JSON.stringify(userOf(exchange).name)}`,
      )
    },
  )

  test('[profile] a name of 100 code points is accepted, also outside the BMP', covers('§1.name'), async (context) => {
    const user = await prepareDisposable(context, 'update')
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
    // A form that says the same thing: a backend that reads forms too would apply it.
    [
      'Content-Type: application/x-www-form-urlencoded',
      (user) =>
        send({
          as: 'owner',
          method: 'PATCH',
          path: userPath(user.id),
          body: 'name=Renamed+With+Charset',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
    ],
    [
      'no Content-Type',
      (user) => sendWithoutContentType({ as: 'owner', method: 'PATCH', path: userPath(user.id), body: RENAME_BODY }),
    ],
  ]
  for (const [label, sendIt] of cases) {
    test(`[profile] a JSON body sent with ${label} is a 415`, covers('§4.patch.415', '§5.codes'), async (context) => {
      const user = await prepareDisposable(context, 'update')
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

  test(
    '[profile] a PATCH without Content-Type and without a body is a 415, not a 400',
    covers('§4.patch.415', '§3.order.415-before-400'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      const exchange = await send({ as: 'owner', method: 'PATCH', path: userPath(user.id) })
      expectProblem(
        exchange,
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'No Content-Type is a 415, whether or not a body was sent (docs/contract.md §4)',
      )
    },
  )

  test(
    '[profile] a Content-Encoding other than identity is a 415; identity is accepted',
    covers('§4.patch.content-encoding'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      const before = await readUser('owner', user.id)
      for (const encoding of ['gzip', 'br']) {
        const exchange = await send({
          as: 'owner',
          method: 'PATCH',
          path: userPath(user.id),
          body: RENAME_BODY,
          headers: { ...JSON_TYPE, 'content-encoding': encoding },
        })
        expectProblem(
          exchange,
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          `Content-Encoding: ${encoding} is a 415 (docs/contract.md §4)`,
        )
      }
      await expectUnchanged(before)
      const identity = await send({
        as: 'owner',
        method: 'PATCH',
        path: userPath(user.id),
        body: RENAME_BODY,
        headers: { ...JSON_TYPE, 'content-encoding': 'identity' },
      })
      expectStatus(identity, 200, 'Content-Encoding: identity is the body as it is (docs/contract.md §4)')
    },
  )

  // Media types compare case-insensitively, parameters are fine, and the white space before ";" is optional
  // (RFC 9110 §8.3.1: OWS; without it is what most clients send).
  for (const [contentType, sentence] of [
    ['Application/JSON; Charset=UTF-8', 'Media types compare case-insensitively'],
    ['application/json;charset=UTF-8', 'The white space before a parameter is optional'],
    ['application/json; charset=utf-8', 'Parameters such as charset are fine'],
  ] as const)
    test(`[profile] Content-Type: ${contentType} is accepted`, covers('§4.patch.media-type-case'), async (context) => {
      const user = await prepareDisposable(context, 'update')
      const exchange = await sendAs(user, contentType)
      expectStatus(exchange, 200, `${sentence} (RFC 9110, docs/contract.md §4)`)
      expectRule(
        exchange,
        userOf(exchange).name === 'Renamed With Charset',
        'PATCH sets name (docs/contract.md §4)',
        `Received: ${userOf(exchange).name}`,
      )
    })
})

describe('what a PATCH changes', () => {
  test('[profile] a name with white space around it is stored trimmed', covers('§1.name'), async (context) => {
    const user = await prepareDisposable(context, 'update')
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

  test(
    '[profile] setting every field to its current value changes nothing: updatedAt stays',
    covers('§4.patch.same-value'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      const before = await readUser('owner', user.id)
      await sleep(5) // so that a wrongly moved updatedAt would show
      const exchange = await patch(user, { name: before.name, role: before.role, status: before.status })
      expectStatus(exchange, 200, 'Setting a field to the value it has is allowed (docs/contract.md §4)')
      expectSameUpdatedAt(
        exchange,
        before,
        'Setting a field to the value it has changes nothing: updatedAt stays (docs/contract.md §4)',
      )
    },
  )

  test(
    '[profile] names are trimmed of exactly ECMAScript white space: U+3000, U+FEFF, U+2028… go, U+0085 stays',
    covers('§1.name.white-space', '§1.name'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      const trimmed = await patch(user, { name: '\u3000\ufeff\u2028\u2029\u000b\u000c\u00a0\u1680 Spaced Out \r\n\t' })
      expectStatus(trimmed, 200, 'A name with white space around it is valid (docs/contract.md §1)')
      const rule = 'Names are trimmed of what String.prototype.trim removes, and only that (docs/contract.md §1)'
      expectRule(
        trimmed,
        userOf(trimmed).name === 'Spaced Out',
        rule,
        `Received: ${JSON.stringify(userOf(trimmed).name)}`,
      )
      const kept = await patch(user, { name: '\u0085Next Line\u0085' })
      expectStatus(kept, 200, 'U+0085 is not white space: a name around it is valid (docs/contract.md §1)')
      expectRule(
        kept,
        userOf(kept).name === '\u0085Next Line\u0085',
        rule,
        `Received: ${JSON.stringify(userOf(kept).name)}`,
      )
    },
  )

  test(
    '[profile] a name that differs only by surrounding white space is a no-op: updatedAt stays',
    covers('§4.patch.name-no-op'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
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
    },
  )

  test(
    '[profile] a real change moves updatedAt forward and keeps createdAt',
    covers('§1.updated-at', '§1.created-at'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
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
    },
  )

  test(
    '[profile] a change of role alone moves updatedAt, and so does a change of status alone',
    covers('§1.updated-at'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      let before = await readUser('owner', user.id)
      const role = before.role === 'CLIENT_ADMIN' ? 'CLIENT_VIEWER' : 'CLIENT_ADMIN'
      const status = before.status === 'SUSPENDED' ? 'ACTIVE' : 'SUSPENDED'
      const rule = 'updatedAt moves on every PATCH that changes a field, a change of role or status alone included'
      for (const change of [{ role }, { status }]) {
        // The contract allows no tie, but a check that raced a millisecond clock would fail now and then:
        // 5 ms apart, as the rename's check. A clock of whole seconds must still move it (the second
        // implementation adds a second).
        await sleep(5)
        const exchange = await patch(user, change)
        expectStatus(exchange, 200, 'An owner may change the role and status of a CLIENT_VIEWER (docs/contract.md §3)')
        const answered = userOf(exchange)
        const read = await readUser('owner', user.id)
        for (const [where, after] of [
          ['in the answer', answered],
          ['on GET', read],
        ] as const) {
          expectRule(
            exchange,
            Date.parse(after.updatedAt) > Date.parse(before.updatedAt) && after.createdAt === before.createdAt,
            `${rule}; createdAt never changes (docs/contract.md §1)`,
            `PATCH ${JSON.stringify(change)}, ${where}:\nReceived: updatedAt ${after.updatedAt}, createdAt ${after.createdAt}\nBefore:   updatedAt ${before.updatedAt}, createdAt ${before.createdAt}`,
          )
        }
        before = read
      }
    },
  )

  test(
    '[profile] ACTIVE and SUSPENDED change freely into each other',
    covers('§4.patch.active-suspended'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
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
    },
  )

  test(
    '[profile] a SUSPENDED user is still listed, with their status',
    covers('§4.list.every-status'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
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
    },
  )

  test(
    '[profile] a SUSPENDED user can still be read by every reader, renamed and given another role',
    covers('§4.get.any-status', '§3.read.allows', '§3.name.allows', '§3.role-status.allows'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
      for (const name of ['admin', 'viewer'] as const) needActor(context, name)
      expectStatus(await patch(user, { status: 'SUSPENDED' }), 200, 'An owner may suspend a user (docs/contract.md §3)')
      for (const reader of ['owner', 'admin', 'viewer'] as const) {
        const read = await send({ as: reader, path: userPath(user.id) })
        expectStatus(read, 200, 'GET /api/users/{id} answers a user of any status (docs/contract.md §4)')
        expectRule(
          read,
          userOf(read).status === 'SUSPENDED',
          'GET answers the user as they are (docs/contract.md §4)',
          `Received: ${userOf(read).status}`,
        )
      }
      const renamed = await patch(user, { name: 'Suspended But Renamed' })
      expectStatus(
        renamed,
        200,
        'The state rule is about INVITED users only: a SUSPENDED user can be renamed (docs/contract.md §4)',
      )
      const changed = await send({ as: 'admin', method: 'PATCH', path: userPath(user.id), json: { role: 'BOT_USER' } })
      expectStatus(
        changed,
        200,
        'An admin may change the role of a non-owner, whatever their status (docs/contract.md §3)',
      )
      const after = userOf(changed)
      const holds = after.name === 'Suspended But Renamed' && after.role === 'BOT_USER' && after.status === 'SUSPENDED'
      expectRule(
        changed,
        holds,
        'The 200 is the user after the change (docs/contract.md §4)',
        `Received: ${JSON.stringify(after)}`,
      )
    },
  )

  test(
    '[profile] the 200 answers the user after the change, and a GET agrees',
    covers('§4.patch.answer'),
    async (context) => {
      const user = await prepareDisposable(context, 'update')
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
    },
  )
})

describe('the state rule', () => {
  // The PATCHes the suite aims at a user that is not disposable: a broken backend might activate this invited
  // user (that is why it is skipped under --read-only). The second is sent only after the first was refused,
  // to the same user, whose name is put back if a broken backend applied it: RFC 5789 §2, a PATCH that cannot
  // be applied whole changes nothing.
  test(
    '[profile] the status of an INVITED user cannot be changed: 409, and a 409 changes nothing, a new name beside it included',
    covers('§4.patch.409', '§4.patch.409-changes-nothing', '§5.codes'),
    async (context) => {
      needWrites(context)
      needActor(context, 'owner')
      const invited = await findUser((user) => user.status === 'INVITED')
      if (!invited) return context.skip('the organization has no INVITED user')
      const activate = await send({
        as: 'owner',
        method: 'PATCH',
        path: userPath(invited.id),
        json: { status: 'ACTIVE' },
      })
      expectProblem(
        activate,
        409,
        'INVALID_TRANSITION',
        'The status of an INVITED user cannot be changed through PATCH (docs/contract.md §4)',
      )
      undoAfter(async () => {
        await send({ as: 'owner', method: 'PATCH', path: userPath(invited.id), json: { name: invited.name } })
      }, context)
      const renameAndSuspend = await send({
        as: 'owner',
        method: 'PATCH',
        path: userPath(invited.id),
        json: { name: `${[...invited.name].slice(0, 80).join('')} Renamed`, status: 'SUSPENDED' },
      })
      expectProblem(
        renameAndSuspend,
        409,
        'INVALID_TRANSITION',
        'The status of an INVITED user cannot be changed through PATCH (docs/contract.md §4)',
      )
      const after = await readUser('owner', invited.id)
      expectRule(
        renameAndSuspend,
        after.name === invited.name && after.status === 'INVITED' && after.updatedAt === invited.updatedAt,
        'A PATCH refused with 409 changes nothing, the valid part of its body included (RFC 5789 §2, docs/contract.md §4)',
        `Received: ${JSON.stringify(after)}\nBefore:   ${JSON.stringify(invited)}`,
      )
    },
  )

  // The state rule freezes status, and nothing else. The INVITED user is not disposable: the PATCH sends
  // the values they have, which a correct backend accepts and which change nothing on any backend.
  test(
    "[profile] the state rule freezes status only: an INVITED user's name and role can still be set",
    covers('§4.patch.409', '§4.patch.same-value'),
    async (context) => {
      needWrites(context)
      needActor(context, 'owner')
      const invited = await findUser((user) => user.status === 'INVITED')
      if (!invited) return context.skip('the organization has no INVITED user')
      const exchange = await send({
        as: 'owner',
        method: 'PATCH',
        path: userPath(invited.id),
        json: { name: invited.name, role: invited.role },
      })
      expectStatus(
        exchange,
        200,
        'Only the status of an INVITED user is frozen: name and role can be set (docs/contract.md §4)',
      )
      expectRule(
        exchange,
        userOf(exchange).status === 'INVITED',
        'A PATCH without status keeps it (docs/contract.md §4)',
        `Received: ${userOf(exchange).status}`,
      )
    },
  )
})

const JSON_TYPE = { 'content-type': 'application/json' }
const RENAME_BODY = JSON.stringify({ name: 'Renamed With Charset' })

/** What a refused body proves besides the 400 itself, by what is wrong with it. */
function badBodySentences(label: string): SentenceId[] {
  const sentences: SentenceId[] = [
    '§4.patch.400',
    '§4.patch.body',
    '§5.errors',
    '§5.errors.pointer',
    '§5.400-changes-nothing',
  ]
  if (label.includes('name')) sentences.push('§1.name')
  if (label.includes('unknown key')) sentences.push('§1.no-extra-request-fields')
  if (label.includes('status')) sentences.push('§4.patch.status-values')
  return sentences
}

/**
 * The 400's issues in the body point where the problem is: at least one at a pointer of `pointers`, and
 * none elsewhere than there or the whole body (an implementation may add an issue about the whole body).
 */
function expectBodyPointers(exchange: Exchange, pointers: string[]): void {
  const errors = (exchange.response.body as { errors: Array<{ in?: unknown; path?: unknown }> }).errors
  const inBody = errors.filter((error) => error.in === 'body').map((error) => error.path)
  const allowed = [...pointers, '']
  expectRule(
    exchange,
    inBody.some((path) => pointers.includes(path as string)) &&
      inBody.every((path) => allowed.includes(path as string)),
    'For body the pointer points into the body: "" is the whole body, /name a key (docs/contract.md §5)',
    `Received: ${inBody.map((path) => JSON.stringify(path)).join(', ')}\nExpected: ${pointers.map((path) => JSON.stringify(path)).join(' or ')}`,
  )
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
