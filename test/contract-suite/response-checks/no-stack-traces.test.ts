import { describe, expect, test } from 'vitest'
import { noStackTraces } from '../../../src/contract/checks/no-stack-traces.js'
import { aProblem, prepareCheck } from '../../support/exchange-builder.js'

const verify = await prepareCheck(noStackTraces)
const internal = (detail: string) => ({
  path: '/api/users/me',
  status: 500,
  json: aProblem(500, 'INTERNAL', { detail }),
})

describe('no-stack-traces (CONTRACT §5)', () => {
  test.each([
    'Something went wrong on our side. Try again later.',
    'Look at the docs at /docs for the routes.',
    'No route GET /api/users/x.js. The users API answers GET /api/users.',
    'The name must be at least 1 character.',
  ])('an error body without a stack trace passes: %s', (detail) => {
    expect(verify(internal(detail))).toBeUndefined()
  })

  test('a V8 frame in the detail fails, quoting it', () => {
    const message = verify(
      internal('TypeError: Cannot read properties of undefined\n    at getUser (/app/src/users.js:12:7)'),
    )
    expect(message).toBe(
      'Received: a stack trace in the body: "at getUser (/app/src/users.js:12:7)"\nDocumented: no stack traces in error bodies',
    )
  })

  test.each([
    ['a stack in another key', { stack: ['at Object.<anonymous> (/srv/app.js:3:9)'] }],
    ['a JVM frame', { detail: 'java.lang.NullPointerException\n\tat com.acme.Users.get(Users.java:42)' }],
    ['a .NET frame', { detail: 'Boom\n   at Acme.Users.Get() in C:\\src\\Users.cs:line 42' }],
    ['an Error naming a source file', { detail: "Error: ENOENT: no such file, open '/app/src/db.ts'" }],
    ['node_modules', { detail: 'failed in /app/node_modules/fastify/lib/route.js' }],
    ['a Python traceback', { detail: 'Traceback (most recent call last):\n  File "app.py", line 3' }],
    ['a Go panic', { detail: 'panic: boom\n\ngoroutine 1 [running]:\nmain.main()' }],
  ])('%s fails', (_case, changes) => {
    const message = verify({ path: '/api/users/me', status: 500, json: aProblem(500, 'INTERNAL', changes) })
    expect(message).toContain('Received: a stack trace in the body: ')
  })

  test('a body that is not JSON is searched as text', () => {
    const text = '<pre>Error: boom\n    at handler (/app/server.js:10:3)\n</pre>'
    expect(verify({ path: '/api/users/me', status: 500, headers: { 'content-type': 'text/html' }, text })).toContain(
      'at handler (/app/server.js:10:3)',
    )
  })

  test('successes are not judged', () => {
    expect(verify({ path: '/api/users/me', status: 200, json: { data: { name: 'at x (/a.js:1:1)' } } })).toBeUndefined()
  })
})
