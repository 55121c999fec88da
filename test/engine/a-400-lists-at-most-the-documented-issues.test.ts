import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { MAX_LISTED_ISSUES } from '../../src/engine/validation-issues.js'
import { createMockApp } from '../../src/server/start-mock.js'
import { BODY_LIMIT } from '../../src/spec/contract-limits.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import type { Problem, UserEnvelope } from '../support/api-exchange.js'
import { injectApi } from '../support/inject-api.js'
import { namedUser } from '../support/named-users.js'

// The document bounds a 400's `errors` (maxItems, for OWASP API4): the mock must keep within it however
// many issues a request has. injectApi checks every answer against the document, maxItems included.

const VIEWER_ID = namedUser('viewer-token').id

/** A PATCH body of `count` distinct unknown keys (`{"0":0,"1":0,…}`): one issue each. */
function unknownKeys(count: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [index.toString(36), 0]))
}

/** As many unknown keys as a body within the 16 KiB limit holds. */
function mostUnknownKeysWithinTheLimit(): Record<string, number> {
  let count = 0
  let length = '{}'.length
  // Each key adds `"key":0`, and a comma after the first.
  while (length + (count > 0 ? 1 : 0) + `"${count.toString(36)}":0`.length <= BODY_LIMIT) {
    length += (count > 0 ? 1 : 0) + `"${count.toString(36)}":0`.length
    count++
  }
  return unknownKeys(count)
}

describe('a 400 lists at most the issues the document allows', () => {
  let app: FastifyInstance

  beforeEach(async () => {
    ;({ app } = await createMockApp({ users: 5 }))
  })

  afterEach(async () => {
    await app.close()
  })

  test("the engine's bound is the document's maxItems of errors, in both places it is declared", async () => {
    const { dereferenced } = await loadSpec()
    const schemas = dereferenced.components?.schemas as Record<string, Record<string, unknown>>
    const problemErrors = (schemas['Problem']?.properties as Record<string, { maxItems?: number }>)['errors']
    const validationBranch = (schemas['ValidationProblem']?.allOf as Array<{ properties?: object }>)[1]
    const validationErrors = (validationBranch?.properties as Record<string, { maxItems?: number }>)['errors']
    expect(problemErrors?.maxItems).toBe(MAX_LISTED_ISSUES)
    expect(validationErrors?.maxItems).toBe(MAX_LISTED_ISSUES)
  })

  test('a 16 KiB body of thousands of unknown keys is a valid 400 listing the first issues, counting them all', async () => {
    const body = mostUnknownKeysWithinTheLimit()
    const count = Object.keys(body).length
    expect(JSON.stringify(body).length).toBeLessThanOrEqual(BODY_LIMIT)
    expect(count).toBeGreaterThan(10 * MAX_LISTED_ISSUES)
    const before = await injectApi<UserEnvelope>(app, { url: `/api/users/${VIEWER_ID}`, token: 'owner-token' })

    const answer = await injectApi<Problem>(app, {
      method: 'PATCH',
      url: `/api/users/${VIEWER_ID}`,
      token: 'owner-token',
      body,
    })

    expect(answer.status, answer.text).toBe(400)
    expect(answer.body.code).toBe('VALIDATION_FAILED')
    expect(answer.body.errors).toHaveLength(MAX_LISTED_ISSUES)
    expect(answer.body.errors?.[0]).toEqual({
      in: 'body',
      path: '/0',
      message: 'is not a known property (check its spelling)',
    })
    expect(answer.body.detail).toContain(`(${count} issues; the first ${MAX_LISTED_ISSUES} listed)`)
    // An answer no larger than the request that caused it: the bound is what keeps it so.
    expect(answer.text.length).toBeLessThan(JSON.stringify(body).length)
    const after = await injectApi<UserEnvelope>(app, { url: `/api/users/${VIEWER_ID}`, token: 'owner-token' })
    expect(after.body).toEqual(before.body)
  })

  test('exactly as many issues as the bound are all listed, and the detail counts nothing', async () => {
    const answer = await injectApi<Problem>(app, {
      method: 'PATCH',
      url: `/api/users/${VIEWER_ID}`,
      token: 'owner-token',
      body: unknownKeys(MAX_LISTED_ISSUES),
    })
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toHaveLength(MAX_LISTED_ISSUES)
    expect(answer.body.detail).not.toMatch(/issues; the first/)
  })

  test('one issue over the bound: the first ones are listed, in order, and the detail counts them all', async () => {
    const answer = await injectApi<Problem>(app, {
      method: 'PATCH',
      url: `/api/users/${VIEWER_ID}`,
      token: 'owner-token',
      body: unknownKeys(MAX_LISTED_ISSUES + 1),
    })
    expect(answer.status).toBe(400)
    expect(answer.body.errors?.map((issue) => issue.path)).toEqual(
      Object.keys(unknownKeys(MAX_LISTED_ISSUES)).map((key) => `/${key}`),
    )
    expect(answer.body.detail).toContain(`(${MAX_LISTED_ISSUES + 1} issues; the first ${MAX_LISTED_ISSUES} listed)`)
  })
})
