import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ContractClient } from '../../src/contract/client/contract-client.js'
import { toCurl } from '../../src/contract/client/to-curl.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'

// docs/contract.md §4: a PATCH body whose bytes are not UTF-8 is a 400. The suite sends such bytes with
// `latin1` (one byte a character), and the curl of its report sends the same bytes.

const BODY = '{"name":"Ada \xff"}'

let mock: RunningMock

beforeAll(async () => {
  mock = await startMock({ port: 0 })
})

afterAll(async () => {
  await mock.close()
})

describe('bytes that are not UTF-8', () => {
  test('the suite sends each character of a latin1 body as one byte, and the mock answers 400', async () => {
    const client = new ContractClient({ baseUrl: mock.url, spec: await loadSpec(), checks: [] })
    const owner = mock.target.actors.owner?.token
    const exchange = await client.send({
      method: 'PATCH',
      path: '/api/users/no-such-user',
      token: owner,
      headers: { 'content-type': 'application/json' },
      body: BODY,
      latin1: true,
    })
    expect(exchange.response.status).toBe(400)
    expect(exchange.response.text).toMatch(/UTF-8/)
    expect(exchange.request.bodyEncoding).toBe('latin1')
  })

  test('a latin1 body with a character above U+00FF is refused before sending', async () => {
    const client = new ContractClient({ baseUrl: mock.url, spec: await loadSpec(), checks: [] })
    await expect(
      client.send({ method: 'PATCH', path: '/api/users/x', body: '{"name":"€"}', latin1: true }),
    ).rejects.toThrow(/U\+0100/)
  })

  test("the report's curl sends the same bytes through bash", () => {
    const curl = toCurl({
      method: 'PATCH',
      url: 'http://127.0.0.1:1/api/users/x',
      headers: {},
      body: `${BODY}'\\\n`,
      bodyEncoding: 'latin1',
    })
    const argument = curl.split(' --data-binary ')[1]?.split(' http://')[0] ?? ''
    expect(argument.startsWith("$'")).toBe(true)
    const bytes = execFileSync('bash', ['-c', `printf %s ${argument}`])
    expect([...bytes]).toEqual([...Buffer.from(`${BODY}'\\\n`, 'latin1')])
  })
})
