import { inject } from 'vitest'
import { createFetchHandler } from '../../src/fetch/index.js'
import { hasNoContentByHttp } from '../../src/http/bodiless-answers.js'
import { defaultTransport, useTransport } from '../../src/contract/client/default-transport.js'
import { IN_PROCESS_MOCK, IN_PROCESS_ORIGIN, type InProcessMock } from './in-process-target.js'

/**
 * The mock's engine answering the contract suite in the worker itself, for mutation runs
 * (vitest.mutation.config.ts): no socket, so Stryker sees which check reached which mutant.
 * It uses the kit's public fetch entry (`users-api-kit/fetch`), as any app embedding the mock would,
 * over the state and webhook secret in-process-target.ts made for the target the suite is given.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    [IN_PROCESS_MOCK]: InProcessMock
  }
}

const described = inject(IN_PROCESS_MOCK)
// No faker users of its own: every test file loads the provided state.
const handle = createFetchHandler({ users: 0, webhooks: { secret: described.webhookSecret } })
const mock = await handle.mock
// Reset keeps endpoints, so once a worker is enough.
mock.webhooks.subscribe({
  url: `http://127.0.0.1:${described.receiver.port}/`,
  organizationId: described.receiver.organizationId,
})

// The suite's client sends to the in-process origin through the handler, anything else over the network.
const network = defaultTransport()
useTransport(async (request) => {
  if (new URL(request.url).origin !== IN_PROCESS_ORIGIN) return network(request)
  const { method, url, headers, body, signal } = request
  const response = await handle(new Request(url, { method, headers, body: body ?? null, signal }))
  const answer = { status: response.status, headers: Object.fromEntries(response.headers) }
  return { ...answer, body: hasNoContentByHttp(method, response.status) ? null : response.body }
})

/**
 * Before each test file: the seed and the target's users as they were created (the suite deletes and
 * changes disposable users), pending deliveries dropped.
 */
export function prepareTestFile(): void {
  mock.state.replace(described.state)
  mock.webhooks.clear()
}
