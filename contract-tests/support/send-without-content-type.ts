import { ContractViolation } from '../../src/contract/contract-violation.js'
import type { Exchange } from '../../src/contract/exchange.js'
import { matchOperation } from '../../src/contract/match-operation.js'
import { SUITE_ENV } from '../../src/contract/suite-env.js'
import { suite, type Sender } from './suite.js'

/**
 * Sends a body with no Content-Type header at all, which `fetch` does not do for a string (it adds
 * `text/plain`): the body goes as bytes. Every response-level check runs on the answer, as in `send`.
 */
export async function sendWithoutContentType(options: {
  as: Exclude<Sender, null>
  method: string
  path: string
  body: string
}): Promise<Exchange> {
  const token = typeof options.as === 'string' ? suite.target.actors[options.as]?.token : options.as.token
  if (token === undefined) throw new Error(`No token for ${JSON.stringify(options.as)}: call needActor first.`)
  const url = `${suite.target.baseUrl}${options.path}`
  const headers = { authorization: `Bearer ${token}` }
  const response = await fetch(url, {
    method: options.method,
    headers,
    body: new TextEncoder().encode(options.body),
    redirect: 'manual',
    signal: AbortSignal.timeout(Number(process.env[SUITE_ENV.timeoutMs] || '10000')),
  })
  const text = await response.text()
  const responseHeaders = Object.fromEntries([...response.headers.entries()].map(([name, value]) => [name, value]))
  let body: unknown
  try {
    body = /json/.test(responseHeaders['content-type'] ?? '') && text !== '' ? JSON.parse(text) : undefined
  } catch {
    body = undefined
  }
  const exchange: Exchange = {
    request: { method: options.method, url, headers, body: options.body },
    response: { status: response.status, headers: responseHeaders, text, ...(body === undefined ? {} : { body }) },
    operation: matchOperation(suite.client.operations, options.method, new URL(url).pathname),
  }
  const findings = suite.client.findingsOf(exchange)
  if (findings.length > 0) throw new ContractViolation(findings, exchange)
  return exchange
}
