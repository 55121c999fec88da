import { afterAll, describe, expect, test } from 'vitest'
import type { Target } from '../../src/contract/target/target.js'
import { startProxy, type RunningProxy } from '../../src/proxy/start-proxy.js'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import { buildCliOnce } from '../support/cli-mock-process.js'
import { runKit } from '../support/run-fuzz.js'
import { runVerify } from '../support/run-verify.js'
import { startSecondImplementation, stopSecondImplementations } from '../support/second-implementation.js'

// Issue 23: verify and Schemathesis sent through the proxy. Their own checks still pass (the proxy
// changed no answer they judge), and the proxy, judging ~1,100 exchanges of verify's (every kind of
// request the contract refuses among them) and a few hundred of Schemathesis's, finds no violation on
// a correct backend: the client's mistakes are the client's.

afterAll(stopSecondImplementations)

/** verify (or fuzz) against `target` through a proxy: the run, and what the proxy found. */
async function throughTheProxy<X extends Target, T>(
  target: X,
  run: (through: X) => Promise<T>,
): Promise<{ result: T; proxy: RunningProxy }> {
  const proxy = await startProxy({ upstream: target.baseUrl, port: 0 })
  try {
    const result = await run({ ...target, baseUrl: proxy.url })
    await proxy.settled()
    return { result, proxy }
  } finally {
    await proxy.close()
  }
}

function notClients(proxy: RunningProxy): string[] {
  return proxy.log
    .recent()
    .filter((entry) => entry.kind !== 'client')
    .map((entry) => entry.report)
}

describe('verify through the proxy', () => {
  test('against the mock: every check passes, and the proxy reports no violation', async () => {
    await buildCliOnce()
    const mock: RunningMock = await startMock({ users: 8 })
    try {
      const { result: run, proxy } = await throughTheProxy(mock.target, (through) => runVerify(through))
      expect(run.failures, run.output).toEqual([])
      expect(run.exitCode, run.output).toBe(0)
      expect(run.passed).toBeGreaterThan(300)
      expect(notClients(proxy)).toEqual([])
      expect(proxy.log.counts.judged).toBeGreaterThan(1000)
      expect(proxy.log.counts.client).toBeGreaterThan(100)
    } finally {
      await mock.close()
    }
  }, 180_000)

  test('against the second implementation, strict: every check passes, and the proxy reports no violation', async () => {
    await buildCliOnce()
    const { target, stop } = await startSecondImplementation(['--id-style', 'odd', '--compress', 'yes'])
    try {
      const { result: run, proxy } = await throughTheProxy(target, (through) => runVerify(through, ['--strict']))
      expect(run.failures, run.output).toEqual([])
      expect(run.exitCode, run.output).toBe(0)
      expect(notClients(proxy)).toEqual([])
      expect(proxy.log.counts.judged).toBeGreaterThan(1000)
    } finally {
      await stop()
    }
  }, 180_000)
})

describe('Schemathesis through the proxy', () => {
  test('against the mock: no finding of its own, and no violation reported by the proxy', async () => {
    await buildCliOnce()
    const mock = await startMock({ users: 20 })
    try {
      const { result: run, proxy } = await throughTheProxy(mock.target, (through) =>
        runKit('fuzz', through, ['--max-examples', '15', '--seed', '1']),
      )
      expect(run.output).toContain('users-api-kit fuzz: no findings.')
      expect(run.exitCode, run.output).toBe(0)
      expect(notClients(proxy)).toEqual([])
      expect(proxy.log.counts.judged).toBeGreaterThan(200)
    } finally {
      await mock.close()
    }
  }, 240_000)
})
