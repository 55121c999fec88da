import { describe, expect, test } from 'vitest'
import { DISPOSABLE_USERS_NEEDED } from '../../src/target/disposable-slots.js'
import { createFetchHandler } from '../../src/fetch/create-fetch-handler.js'
import { createUsersApiMock } from '../../src/mock-instance/create-users-api-mock.js'
import { startMock } from '../../src/server/start-mock.js'
import { generateWebhookSecret } from '../../src/webhooks/webhook-secret.js'
import { buildCliOnce } from '../support/cli-mock-process.js'
import { runVerify, type VerifyRun } from '../support/run-verify.js'
import { serveFetchHandler } from '../support/serve-fetch-handler.js'
import { freePort } from '../support/free-port.js'

// One engine, two transports: the fetch handler passes the whole contract suite, the same checks as the
// Fastify server. Both `users-api-kit verify` runs start at once and run side by side.

/** A verify process of its own, beside the other one (~5 s alone, more beside other test files). */
const SUITE_RUN_MS = 120_000

/** The disposable users the suite shares out (src/target/disposable-slots.ts). */
const DISPOSABLE = DISPOSABLE_USERS_NEEDED

/** Runs once, however many tests await it. */
function once<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined
  return () => (result ??= run())
}

const againstFastify = once(async (): Promise<VerifyRun> => {
  await buildCliOnce()
  const mock = await startMock({ disposable: DISPOSABLE })
  try {
    return await runVerify(mock.target)
  } finally {
    await mock.close()
  }
})

const againstFetchHandler = once(async (): Promise<VerifyRun> => {
  await buildCliOnce()
  const mock = await createUsersApiMock()
  const server = await serveFetchHandler(createFetchHandler({ mock }))
  // The fetch handler serves no control route to subscribe through: the receiver is subscribed
  // beforehand on a port chosen now, as a team subscribes it in their own backend.
  const port = await freePort()
  const target = mock.createTarget(server.url, DISPOSABLE)
  const secret = generateWebhookSecret()
  // For the owner's organization, as docs/contract-suite.md asks: events go to their organization's endpoints.
  const owner = target.actors.owner?.token ?? ''
  const me = await fetch(`${server.url}/api/users/me`, { headers: { authorization: `Bearer ${owner}` } })
  const { organizationId } = ((await me.json()) as { data: { organizationId: string } }).data
  mock.webhooks.subscribe({ url: `http://127.0.0.1:${port}/`, secret, organizationId })
  try {
    return await runVerify({ ...target, webhooks: { listen: `127.0.0.1:${port}`, secret, retryWithinSeconds: 5 } })
  } finally {
    await server.close()
  }
})

/** How many checks the run counted, whatever became of them. */
const checksOf = (run: VerifyRun): number => run.passed + run.failed + run.skipped

describe.concurrent('the contract suite, through both transports of one engine', () => {
  test(
    'the server (startMock: node:http for the API): exit code 0, every check passed',
    async () => {
      const run = await againstFastify()
      expect(run.failures, run.output).toEqual([])
      expect(run.exitCode, run.output).toBe(0)
      expect(run.failed).toBe(0)
      expect(run.skipped, run.output).toBe(0)
      expect(run.passed).toBeGreaterThan(100)
    },
    SUITE_RUN_MS,
  )

  test(
    'the fetch handler behind node:http: exit code 0, every check passed, as many checks as the server',
    async () => {
      const [run, fastify] = await Promise.all([againstFetchHandler(), againstFastify()])
      expect(run.failures, run.output).toEqual([])
      expect(run.exitCode, run.output).toBe(0)
      expect(run.failed).toBe(0)
      expect(run.skipped, run.output).toBe(0)
      expect(run.passed).toBeGreaterThan(100)
      expect(checksOf(run), 'the checks run against the fetch handler and against the Fastify server').toBe(
        checksOf(fastify),
      )
      expect(run.passed).toBe(fastify.passed)
    },
    SUITE_RUN_MS,
  )
})
