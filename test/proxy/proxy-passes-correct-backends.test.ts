import { afterAll, describe, expect, test } from 'vitest'
import type { Target } from '../../src/contract/target/target.js'
import { startProxy } from '../../src/proxy/start-proxy.js'
import { createMockApp, serverUrl } from '../../src/server/start-mock.js'
import { rewriteResponse } from '../support/broken-servers/break-helpers.js'
import { DISPOSABLE_USERS_NEEDED, runScriptedTraffic } from '../support/proxy-traffic.js'
import { startSecondImplementation, stopSecondImplementations } from '../support/second-implementation.js'

// Issue 23, "fair": a correct backend through the proxy gives 0 violations. Two written apart: the mock,
// and the second implementation in Python with its other choices (ids, whole seconds, typed problems,
// extra fields, gzip). The scripted client sends every kind of request the proxy judges, the client's
// own mistakes included: those are the client's, never the backend's.

afterAll(stopSecondImplementations)

/** The scripted traffic through a proxy in front of `target`'s backend: what the proxy found. */
async function judgeTraffic(target: Target) {
  const proxy = await startProxy({ upstream: target.baseUrl, port: 0 })
  try {
    const steps = await runScriptedTraffic(proxy.url, target)
    await proxy.settled()
    const findings = proxy.log.recent()
    return {
      steps,
      counts: proxy.log.counts,
      violations: findings.filter((entry) => entry.kind !== 'client').map((entry) => entry.report),
    }
  } finally {
    await proxy.close()
  }
}

describe('the proxy in front of a correct backend reports no violation', () => {
  test('the mock, whose every answer reaches the client byte for byte', async () => {
    const { app, mock, state } = await createMockApp({ users: 12 })
    // What the mock's engine answered, in order: the client must get the same bytes through the proxy.
    const sent: string[] = []
    rewriteResponse({ app, mock, state }, (response) => {
      sent.push(`${response.status} ${response.body ?? ''}`)
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const target = mock.createTarget(serverUrl(app), DISPOSABLE_USERS_NEEDED)
      const { steps, counts, violations } = await judgeTraffic(target)
      expect(violations).toEqual([])
      expect(steps.map((step) => `${step.status} ${step.body}`)).toEqual(sent)
      expect(counts.judged).toBe(steps.length)
      // The refusals the script sends on purpose are the client's, and were seen as such.
      expect(counts.client).toBeGreaterThanOrEqual(12)
      expect(steps.filter((step) => step.status >= 500)).toEqual([])
    } finally {
      await app.close()
    }
  }, 60_000)

  test.each([
    ['its own choices', []],
    [
      'ids a URL must escape, gzip answers, milliseconds',
      ['--id-style', 'odd', '--compress', 'yes', '--timestamps', 'millis'],
    ],
  ])(
    'the second implementation, %s',
    async (_name, flags) => {
      const { target, stop } = await startSecondImplementation(flags)
      try {
        const { counts, violations } = await judgeTraffic(target)
        expect(violations).toEqual([])
        expect(counts.client).toBeGreaterThanOrEqual(12)
      } finally {
        await stop()
      }
    },
    60_000,
  )
})
