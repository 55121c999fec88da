import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { SUITE_ENV } from '../../src/contract/run/suite-env.js'
import { createFetchHandler } from '../../src/fetch/index.js'

/**
 * The mock's engine answering the contract suite in the worker itself, for mutation runs
 * (vitest.mutation.config.ts): no socket, so Stryker sees which check reached which mutant.
 * It uses the kit's public fetch entry (`users-api-kit/fetch`), as any app embedding the mock would.
 */

/** An origin nothing resolves: a request to it that escaped the in-process route would fail, not pass. */
export const IN_PROCESS_ORIGIN = 'http://users-api.test'

// Organizations of 300 users and more: the state each test file starts from is then filed in bulk by the
// member index (over 256 users at once, member-index.ts), as a loaded state or a large backend is, and the
// suite's role filter, order and search checks read lists built that way.
const handle = createFetchHandler({ users: 300 })
const mock = await handle.mock
// The webhook checks' receiver listens on a real socket (the mock delivers with the real fetch). There is
// no control route in-process to subscribe through: it is subscribed here, on a port chosen now, as a
// team subscribes it in their own backend. Reset keeps endpoints, so once a worker is enough.
const port = await freePort()
const targetOfMock = mock.createTarget(IN_PROCESS_ORIGIN)
// For the owner's organization only, as docs/contract-suite.md asks: events stay in their organization.
const owner = mock.tokens().find(({ token }) => token === targetOfMock.actors.owner?.token)
mock.webhooks.subscribe({ url: `http://127.0.0.1:${port}/`, organizationId: owner?.organizationId })
const target = {
  ...targetOfMock,
  webhooks: {
    listen: `127.0.0.1:${port}`,
    secret: mock.webhooks.secret,
    deliverWithinSeconds: 3,
    retryWithinSeconds: 3,
  },
}
// The state every test file starts from: the seed and the target's disposable users, loaded in descending
// id order rather than list order, so that the member index places most users between others (how a state
// file or PUT /__mock/state loads; loading in list order, as the seed does, never does), and users created
// at the same instant arrive against their order.
const exported = mock.exportState()
const startState = { ...exported, users: [...exported.users].sort((a, b) => (a.id < b.id ? 1 : -1)) }

const networkFetch = globalThis.fetch
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init)
  return new URL(request.url).origin === IN_PROCESS_ORIGIN ? handle(request) : networkFetch(request)
}

/**
 * Before each test file: the seed and the target's users as they were created (the suite deletes and
 * changes disposable users), pending deliveries dropped, and the suite's settings as `verify` would pass them.
 */
export function prepareTestFile(): void {
  mock.state.replace(startState)
  mock.webhooks.clear()
  process.env[SUITE_ENV.target] = JSON.stringify(target)
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
