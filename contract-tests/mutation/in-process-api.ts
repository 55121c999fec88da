import { SUITE_ENV } from '../../src/contract/suite-env.js'
import { createFetchHandler } from '../../src/fetch/index.js'

/**
 * The mock's engine answering the contract suite in the worker itself, for mutation runs
 * (vitest.mutation.config.ts): no socket, so Stryker sees which check reached which mutant.
 * It uses the kit's public fetch entry (`users-api-kit/fetch`), as any app embedding the mock would.
 */

/** An origin nothing resolves: a request to it that escaped the in-process route would fail, not pass. */
export const IN_PROCESS_ORIGIN = 'http://users-api.test'

const handle = createFetchHandler()
const mock = await handle.mock
// No webhook receiver: it listens on a socket and subscribes through the server's control routes, neither
// of which exists in-process. The suite skips the webhook checks for want of one (and the mutation config
// leaves their file out). JSON leaves an undefined key out.
const target = { ...mock.createTarget(IN_PROCESS_ORIGIN), webhooks: undefined }
// The target's disposable users are part of the state every test file starts from.
mock.state.markBaseline()

const networkFetch = globalThis.fetch
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init)
  return new URL(request.url).origin === IN_PROCESS_ORIGIN ? handle(request) : networkFetch(request)
}

/**
 * Before each test file: the seed and the target's users as they were created (the suite deletes and
 * changes disposable users), and the suite's settings as `verify` would pass them.
 */
export function prepareTestFile(): void {
  mock.reset()
  process.env[SUITE_ENV.target] = JSON.stringify(target)
}
