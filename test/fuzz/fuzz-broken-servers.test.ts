import { describe, expect, test } from 'vitest'
import { createTarget } from '../../src/mock-instance/create-target.js'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { FUZZ_BREAKERS } from '../support/broken-servers/fuzz-breakers.js'
import { checksInSummary, runKit } from '../support/run-fuzz.js'

// Sequential on purpose: each test is one Schemathesis process plus this process's server.
describe('users-api-kit fuzz catches a broken server', () => {
  test.each(FUZZ_BREAKERS.map((breaker) => [breaker.name, breaker] as const))(
    'that %s, on the right check, and exits 1',
    async (_name, breaker) => {
      const { app, state, mock } = await createMockApp({ users: 8 })
      breaker.apply({ app, state, mock })
      await app.listen({ port: 0, host: '127.0.0.1' })
      try {
        const target = createTarget(state.store, serverUrl(app), 6)
        const run = await runKit('fuzz', target, ['--max-examples', String(breaker.maxExamples), '--seed', '1'])
        const checks = checksInSummary(run.output)

        expect(run.exitCode, run.output).toBe(1)
        expect([...checks.keys()], `${breaker.breaks}\n${run.output.slice(-3000)}`).toContain(breaker.caughtBy)
        // Each finding comes with the curl that reproduces it.
        expect(run.output).toMatch(new RegExp(`^${breaker.caughtBy} \\(\\d+\\)\\n  ✗ .+\\n      curl -X `, 'm'))
        expect(run.junit).toMatch(/<failure /)
      } finally {
        await app.close()
      }
    },
    180_000,
  )
})
