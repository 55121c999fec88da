import { describe } from 'vitest'
import type { Exchange } from '../src/contract/client/exchange.js'
import { ROLES, type ApiUser } from './support/api-user.js'
import { covers } from './support/covers.js'
import { listItems, readMe } from './support/read-users.js'
import { expectRule, needActor, send, suite, test } from './support/suite.js'

// CONTRACT §1, the User resource, on the users the list answers (read-only). The document's schema is
// checked on every answer (src/contract/checks/body-matches-schema.ts); these checks name each rule
// of the table, and the one no schema can say: emails are unique across the whole service.

const RFC_3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

describe.concurrent('the fields of a user (docs/contract.md §1)', () => {
  test(
    '[core] every user has an id, an email, a trimmed name of 1 to 100 code points, one of the four roles and an organizationId',
    covers('§1.id', '§1.email', '§1.name', '§1.role', '§1.organization-id'),
    async (context) => {
      needActor(context, 'owner')
      const { exchange, items } = await listItems('owner', { limit: 100 })
      for (const user of items) expectCoreFields(exchange, user)
    },
  )

  test(
    '[profile] every user has a status of the three, and RFC 3339 UTC times with updatedAt not before createdAt',
    covers('§1.status', '§1.created-at', '§1.updated-at'),
    async (context) => {
      needActor(context, 'owner')
      const { exchange, items } = await listItems('owner', { limit: 100 })
      for (const user of items) {
        const show = `Received: ${user.id} status ${user.status}, createdAt ${user.createdAt}, updatedAt ${user.updatedAt}`
        expectRule(
          exchange,
          ['ACTIVE', 'INVITED', 'SUSPENDED'].includes(user.status),
          'status is ACTIVE, INVITED or SUSPENDED (docs/contract.md §1)',
          show,
        )
        expectRule(
          exchange,
          RFC_3339_UTC.test(user.createdAt) && RFC_3339_UTC.test(user.updatedAt),
          'createdAt and updatedAt are RFC 3339 in UTC, ending in Z (docs/contract.md §1)',
          show,
        )
        expectRule(
          exchange,
          Date.parse(user.updatedAt) >= Date.parse(user.createdAt),
          'updatedAt is never earlier than createdAt (docs/contract.md §1)',
          show,
        )
      }
    },
  )

  test(
    '[core] no two users share an email, compared case-insensitively, across organizations',
    covers('§1.email.unique'),
    async (context) => {
      needActor(context, 'owner')
      // Pages read through `page` and `limit` only (core): `meta` is profile.
      const pages = [...(await readPages('owner')), ...(await outsiderPages())]
      const users = new Map<string, ApiUser>()
      for (const user of pages.flatMap((page) => page.items)) users.set(user.id, user)
      const byEmail = new Map<string, ApiUser>()
      const first = pages[0]?.exchange as Exchange
      for (const user of users.values()) {
        const other = byEmail.get(user.email.toLowerCase())
        expectRule(
          first,
          other === undefined,
          'No two users of the whole service share an email, compared case-insensitively (docs/contract.md §1)',
          `Received: ${other?.id} <${other?.email}> and ${user.id} <${user.email}>`,
        )
        byEmail.set(user.email.toLowerCase(), user)
      }
    },
  )

  test(
    '[profile] a success is application/json, in UTF-8 when a charset is given',
    covers('§4.json'),
    async (context) => {
      needActor(context, 'owner')
      for (const path of ['/api/users/me', '/api/users?limit=1']) {
        const exchange = await send({ as: 'owner', path })
        const [type = '', ...parameters] = (exchange.response.headers['content-type'] ?? '').split(';')
        const charset = parameters
          .map((parameter) => parameter.trim().toLowerCase())
          .find((p) => p.startsWith('charset='))
        expectRule(
          exchange,
          type.trim().toLowerCase() === 'application/json' &&
            (charset === undefined || /^charset="?utf-8"?$/.test(charset)),
          'JSON bodies are application/json; charset=utf-8 (docs/contract.md §4)',
          `Received: Content-Type ${JSON.stringify(exchange.response.headers['content-type'])}`,
        )
      }
    },
  )
})

/** Up to five pages of 100 users of the caller's organization, until one is not full. */
async function readPages(as: 'owner' | 'outsider'): Promise<Array<{ exchange: Exchange; items: ApiUser[] }>> {
  const pages = []
  for (let page = 1; page <= 5; page += 1) {
    const answer = await listItems(as, { limit: 100, page })
    pages.push(answer)
    if (answer.items.length < 100) break
  }
  return pages
}

/** The outsider's organization, as far as they may list it (bots may not): none without an outsider. */
async function outsiderPages(): Promise<Array<{ exchange: Exchange; items: ApiUser[] }>> {
  if (!suite.target.actors.outsider) return []
  const outsider = await readMe('outsider')
  return outsider.role === 'BOT_USER' ? [] : readPages('outsider')
}

function expectCoreFields(exchange: Exchange, user: ApiUser): void {
  const show = `Received: ${JSON.stringify(user)}`
  const nonEmpty = (value: unknown): boolean => typeof value === 'string' && value !== ''
  expectRule(exchange, nonEmpty(user.id), 'id is always present and never empty (docs/contract.md §1)', show)
  expectRule(
    exchange,
    typeof user.email === 'string' && EMAIL.test(user.email),
    'email is always present, of format email (docs/contract.md §1)',
    show,
  )
  const length = typeof user.name === 'string' ? [...user.name].length : 0
  expectRule(
    exchange,
    typeof user.name === 'string' && user.name === user.name.trim() && length >= 1 && length <= 100,
    'name is 1 to 100 code points, stored trimmed (docs/contract.md §1)',
    show,
  )
  expectRule(exchange, ROLES.includes(user.role), 'role is one of the four roles (docs/contract.md §1)', show)
  expectRule(
    exchange,
    nonEmpty(user.organizationId),
    'organizationId is always present and never empty (docs/contract.md §1)',
    show,
  )
}
