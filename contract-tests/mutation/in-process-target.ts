import { createServer, type AddressInfo } from 'node:net'
import { createUsersApiMock, type UsersApiMock } from '../../src/fetch/index.js'
import { suiteSettingsFor, type SuiteSettings } from '../../src/contract/run/suite-settings.js'

/** An origin nothing resolves: a request to it that escaped the in-process route would fail, not pass. */
export const IN_PROCESS_ORIGIN = 'http://users-api.test'

/** What the workers' in-process mock is built from (in-process-api.ts), as vitest provides it to them. */
export interface InProcessMock {
  /** The state every test file starts from: the seed and the target's disposable users. */
  state: ReturnType<UsersApiMock['exportState']>
  /** The secret the mock signs its webhooks with, which the target's `webhooks.secret` names. */
  webhookSecret: string
  /** The port the suite's webhook receiver listens on, and the organization whose events go there. */
  receiver: { port: number; organizationId: string | undefined }
}

/** The name the in-process mock's description is provided under. */
export const IN_PROCESS_MOCK = 'usersApiKitInProcessMock'

/**
 * Built once, in vitest's main process (vitest.mutation.config.ts), and provided to the workers as
 * verify provides its settings: the target (tokens of a mock made here, its disposable users created
 * here) and the state that holds them, which each worker's in-process mock loads.
 */
export async function createInProcessTarget(): Promise<{ settings: SuiteSettings; mock: InProcessMock }> {
  // Organizations of 300 users and more: the state each test file starts from is then filed in bulk by
  // the member index (over 256 users at once, member-index.ts), as a loaded state or a large backend is,
  // and the suite's role filter, order and search checks read lists built that way.
  const mock = await createUsersApiMock({ users: 300 })
  const target = mock.createTarget(IN_PROCESS_ORIGIN)
  // The webhook checks' receiver listens on a real socket in the worker (the mock delivers with the real
  // fetch), on a port chosen now; it is subscribed for the owner's organization only, as
  // docs/contract-suite.md asks: events stay in their organization.
  const port = await freePort()
  const organizationId = mock.tokens().find(({ token }) => token === target.actors.owner?.token)?.organizationId
  // Loaded in descending id order rather than list order, so that the member index places most users
  // between others (how a state file or PUT /__mock/state loads; loading in list order, as the seed does,
  // never does), and users created at the same instant arrive against their order.
  const exported = mock.exportState()
  const state = { ...exported, users: [...exported.users].sort((a, b) => (a.id < b.id ? 1 : -1)) }
  const webhookSecret = mock.webhooks.secret
  mock.webhooks.close()
  const settings = suiteSettingsFor({
    ...target,
    webhooks: { listen: `127.0.0.1:${port}`, secret: webhookSecret, deliverWithinSeconds: 3, retryWithinSeconds: 3 },
  })
  return { settings, mock: { state, webhookSecret, receiver: { port, organizationId } } }
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
