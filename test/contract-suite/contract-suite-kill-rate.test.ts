import { afterAll, describe, expect, test } from 'vitest'
import type { Target } from '../../src/contract/target/target.js'
import { createTarget } from '../../src/mock-instance/create-target.js'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { MUTANTS, type Mutant } from '../support/broken-servers/mutants.js'
import { runVerify, type VerifyRun } from '../support/run-verify.js'

/**
 * Retries after 100, 200 and 400 ms, not the default 0.5, 1 and 2 s: the check that counts 3 retries takes
 * 0.7 s instead of 3.5 s in each of the 71 runs. The mutants that break the schedule bring their own.
 */
const QUICK_RETRIES = { webhooks: { retryDelaysMs: [100, 200, 400] } }

/**
 * A mock on a free port, broken by `mutant` when given, and a target for it. The checks wait 2 s, not 3,
 * for an event or a retry that does not come (a mutant that signs with another secret fails seven of them
 * so); the correct mock's run, below, proves that its events come within that. A mutant that breaks no
 * rule of §6 is verified without the events (`"webhooks": false`, a choice verify offers): its rule's
 * checks are elsewhere, and the 1.5 s of the events file is spent 47 times less.
 */
async function startServer(mutant?: Mutant) {
  const { app, state, mock } = await createMockApp({ users: 8, ...QUICK_RETRIES, ...mutant?.mockOptions })
  mutant?.apply({ app, state, mock })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const mockTarget = createTarget(state.store, serverUrl(app))
  const breaksEvents = mutant === undefined || mutant.breaks.startsWith('§6')
  const target: Target = {
    ...mockTarget,
    webhooks:
      breaksEvents && mockTarget.webhooks
        ? { ...mockTarget.webhooks, deliverWithinSeconds: 2, retryWithinSeconds: 2 }
        : false,
  }
  return { target, close: () => app.close() }
}

const kills: Array<{ mutant: string; caught: boolean }> = []

afterAll(() => {
  const caught = kills.filter((kill) => kill.caught).length
  console.log(`contract suite kill rate: ${caught}/${kills.length} broken implementations caught on the right check`)
})

describe('the contract suite', () => {
  test('passes every check against a fresh mock, and exits 0', async () => {
    const server = await startServer()
    try {
      const run = await runVerify(server.target)
      expect(run.failures, run.output).toEqual([])
      expect(run.exitCode, run.output).toBe(0)
      expect(run.passed).toBeGreaterThan(100)
    } finally {
      await server.close()
    }
  })

  // Two at a time (vitest.config.ts maxConcurrency): each run is a verify process of its own.
  test.concurrent.each(MUTANTS.map((mutant) => [mutant.name, mutant] as const))(
    'catches a server that %s, on the right check',
    async (_name, mutant) => {
      const server = await startServer(mutant)
      let run: VerifyRun
      try {
        run = await runVerify(server.target)
      } finally {
        await server.close()
      }
      const caught = run.failures.some((failure) => mutant.caughtBy.test(failure))
      kills.push({ mutant: mutant.name, caught })
      expect(run.exitCode, run.output).toBe(1)
      expect(
        caught,
        `None of the ${run.failures.length} failures matches ${mutant.caughtBy} (${mutant.breaks}):\n${run.failures.map((failure) => failure.split('\n')[0]).join('\n')}`,
      ).toBe(true)
    },
    // Webhook faults make the suite wait for an event or a retry that never comes (up to 10 s).
    60_000,
  )
})
