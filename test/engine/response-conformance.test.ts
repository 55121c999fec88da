import { describe, expect, test } from 'vitest'
import type { ApiExchange } from '../support/api-exchange.js'
import { aUser } from '../support/exchange-builder.js'
import { assertConforms } from '../support/response-conformance.js'

// The helper every other test leans on must itself be able to fail: hand-made exchanges.

const USER = aUser()

function exchange(
  method: string,
  url: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ApiExchange {
  const type = status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8'
  const text = body === undefined ? '' : JSON.stringify(body)
  return { request: { method, url }, status, headers: { 'content-type': type, ...headers }, text, body }
}

function problem(status: number, code: string, extra: object = {}): object {
  return { type: 'about:blank', title: 'Title', status, code, detail: 'What went wrong.', ...extra }
}

describe('assertConforms', () => {
  test('accepts a documented answer: getCurrentUser 200', async () => {
    await expect(assertConforms(exchange('GET', '/api/users/me', 200, { data: USER }))).resolves.toBeUndefined()
  })

  test('rejects a body that breaks the schema, naming the operation, the status and the error', async () => {
    const broken = exchange('GET', '/api/users/me', 200, { data: { ...USER, email: 'not an email' } })
    await expect(assertConforms(broken)).rejects.toThrow(/getCurrentUser 200[\s\S]*\/data\/email/)
  })

  test('rejects a status the operation does not document', async () => {
    await expect(assertConforms(exchange('GET', '/api/users/me', 404, problem(404, 'USER_NOT_FOUND')))).rejects.toThrow(
      /getCurrentUser does not document 404/,
    )
  })

  test('rejects an error that is not problem+json', async () => {
    const plain = {
      ...exchange('GET', '/api/users', 403, problem(403, 'FORBIDDEN')),
      headers: { 'content-type': 'application/json' },
    }
    await expect(assertConforms(plain)).rejects.toThrow(/Content-Type application\/json is not documented/)
  })

  test('rejects a problem whose code does not match its status', async () => {
    await expect(assertConforms(exchange('GET', '/api/users', 403, problem(403, 'USER_NOT_FOUND')))).rejects.toThrow(
      /listUsers 403/,
    )
  })

  test('rejects errors on a problem other than a 400', async () => {
    const withErrors = problem(403, 'FORBIDDEN', { errors: [{ in: 'body', path: '', message: 'x' }] })
    await expect(assertConforms(exchange('GET', '/api/users', 403, withErrors))).rejects.toThrow(/listUsers 403/)
  })

  test('rejects a 400 without errors', async () => {
    await expect(assertConforms(exchange('GET', '/api/users', 400, problem(400, 'VALIDATION_FAILED')))).rejects.toThrow(
      /listUsers 400/,
    )
  })

  test('rejects a 401 without WWW-Authenticate', async () => {
    await expect(assertConforms(exchange('GET', '/api/users', 401, problem(401, 'UNAUTHENTICATED')))).rejects.toThrow(
      /WWW-Authenticate is missing/,
    )
  })

  test('rejects a 204 with a body', async () => {
    await expect(assertConforms(exchange('DELETE', `/api/users/${USER.id}`, 204, { data: USER }))).rejects.toThrow(
      /no body/,
    )
  })

  test('checks an undocumented method against the shared MethodNotAllowed response', async () => {
    const good = exchange('PUT', `/api/users/${USER.id}`, 405, problem(405, 'METHOD_NOT_ALLOWED'), {
      allow: 'GET, PATCH, DELETE',
    })
    await expect(assertConforms(good)).resolves.toBeUndefined()
    const noAllow = exchange('PUT', `/api/users/${USER.id}`, 405, problem(405, 'METHOD_NOT_ALLOWED'))
    await expect(assertConforms(noAllow)).rejects.toThrow(/MethodNotAllowed[\s\S]*Allow is missing/)
  })

  test('matches /api/users/me before /api/users/{id}', async () => {
    await expect(assertConforms(exchange('PATCH', '/api/users/me', 200, { data: USER }))).rejects.toThrow(
      /updateCurrentUser does not document 200/,
    )
  })

  test('leaves routes outside /api alone', async () => {
    await expect(assertConforms(exchange('GET', '/__mock/tokens', 200, 'anything'))).resolves.toBeUndefined()
  })
})
