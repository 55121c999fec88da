import { afterAll, describe, expect, test } from 'vitest'
import type { Target } from '../../src/contract/target/target.js'
import { createTarget } from '../../src/mock-instance/create-target.js'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { buildCliOnce } from '../support/cli-mock-process.js'
import { MUTANTS } from '../support/broken-servers/mutants.js'
import { runVerify } from '../support/run-verify.js'

// A backend that breaks a rule of the events (§6) gets its verdict without the webhook checks waiting out
// their deadlines: a check that holds its evidence (a delivery of its change signed wrongly, a delivery
// held while the answer does not come) fails at once, and what one check waited for in vain is not
// waited for again. Bounded by what the checks wait for, not by the clock: each deadline is 20 s here,
// far longer than anything else a webhook check does, and the suite's own timings count the checks
// that reached it.

/** The target's deadlines for a delivery and for each retry. */
const DEADLINE_S = 20

/** The faults, and how many checks may wait out a deadline: the one that finds a retry missing. */
const FAULTS: Array<[string, number]> = [
  ['signs-webhooks-with-another-secret', 0],
  ['signs-webhooks-with-a-timestamp-in-milliseconds', 0],
  ['answers-only-once-its-delivery-is-answered', 0],
  ['never-retries-a-webhook', 1],
  ['sends-no-user-deleted-event', 1],
]

const waits: string[] = []

afterAll(() => console.log(`webhook checks that waited out a ${DEADLINE_S} s deadline:\n${waits.join('\n')}`))

describe.concurrent(`verify against a backend that breaks a rule of the events, deadlines of ${DEADLINE_S} s`, () => {
  test.each(FAULTS)(
    '%s: its webhook checks wait out at most %i deadline',
    async (name, allowed) => {
      await buildCliOnce()
      const mutant = MUTANTS.find((candidate) => candidate.name === name)
      if (!mutant) throw new Error(`No broken server ${name} in test/support/broken-servers/mutants.ts.`)
      const { app, state, mock } = await createMockApp({ users: 8, ...mutant.mockOptions })
      mutant.apply({ app, state, mock })
      await app.listen({ port: 0, host: '127.0.0.1' })
      const mockTarget = createTarget(state.store, serverUrl(app))
      const target: Target = {
        ...mockTarget,
        webhooks: { ...mockTarget.webhooks, deliverWithinSeconds: DEADLINE_S, retryWithinSeconds: DEADLINE_S },
      }
      try {
        const run = await runVerify(target)
        expect(run.exitCode, run.output).toBe(1)
        expect(run.failures.some((failure) => mutant.caughtBy.test(failure))).toBe(true)
        const waited = run.durations.filter(
          (check) => check.file.startsWith('webhooks') && check.ms >= DEADLINE_S * 1000,
        )
        waits.push(...waited.map((check) => `  ${name}: ${Math.round(check.ms / 1000)} s ${check.name}`))
        expect(
          waited.map((check) => check.name).length,
          waited.map((check) => check.name).join('\n'),
        ).toBeLessThanOrEqual(allowed)
      } finally {
        await app.close()
      }
    },
    // Without the quick verdicts, one deadline a check: 9 checks × 20 s and more.
    150_000,
  )
})
