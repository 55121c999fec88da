import { Agent } from 'node:http'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeAll, expect, test } from 'vitest'
import type { ApiRequest } from '../support/api-exchange.js'
import { buildCliOnce, killRunningClis, startCli, WITHIN_MS, type StartedCli } from '../support/cli-mock-process.js'
import { sendTimed, type TimedAnswer } from '../support/send-from-connections.js'

// `users-api-kit mock` stopped by SIGTERM while it answers: what a CI job or `docker stop` does to it.
// The contract of the stop: the requests the mock has begun get their answers (within a grace period
// of 5 s); from the signal on it accepts no new connection (refused; in the instant before its listening
// socket closes, a new one may still be served with `Connection: close`, or reset); it exits with code 0.

/** Requests the mock holds when the signal arrives, each on a keep-alive connection of its own. */
const IN_FLIGHT = 60
/** Long enough for the signal to arrive while every one of them waits; shorter than the 5 s grace. */
const DELAY = 'delay=3000'

beforeAll(buildCliOnce, 120_000)
afterEach(killRunningClis)

/** Lines the mock logged for requests it began (its debug-level log, JSON lines on a pipe). */
function begunRequests(mock: StartedCli): number {
  return mock
    .output()
    .split('\n')
    .filter((line) => line.includes('"incoming request"')).length
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WITHIN_MS
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Not within ${WITHIN_MS} ms: ${what}`)
    await sleep(20)
  }
}

/** A GET, a list, a rename or a delete, in turn; each waits in the mock as `Prefer` asks. */
function inFlightRequest(index: number, disposableIds: string[]): ApiRequest {
  const headers = { prefer: DELAY }
  const id = disposableIds[index]!
  switch (index % 4) {
    case 0:
      return { url: '/api/users/me', token: 'owner-token', headers }
    case 1:
      return { url: '/api/users?limit=5', token: 'owner-token', headers }
    case 2:
      return {
        method: 'PATCH',
        url: `/api/users/${id}`,
        token: 'owner-token',
        body: { name: `Late ${index}` },
        headers,
      }
    default:
      return { method: 'DELETE', url: `/api/users/${id}`, token: 'owner-token', headers }
  }
}

test('SIGTERM under load: the requests in flight are answered, new connections are refused, exit code 0 within 10 s', async () => {
  // At debug level the log says which requests the mock has begun.
  const mock = await startCli(['--log-level', 'debug'])
  const target = (await (
    await fetch(`${mock.url}/__mock/target?disposable=${IN_FLIGHT}`, { method: 'POST' })
  ).json()) as {
    disposable: Array<{ id: string }>
  }
  const ids = target.disposable.map((user) => user.id)
  // Keep-alive sockets the client keeps open to the end, as browsers and HTTP clients do: they must not
  // hold the mock open after its answers (Fastify's keepAliveTimeout is 72 s).
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT })
  try {
    const begunBefore = begunRequests(mock)
    const inFlight: Array<Promise<TimedAnswer>> = Array.from({ length: IN_FLIGHT }, (_, index) =>
      sendTimed(mock.url, inFlightRequest(index, ids), { agent }),
    )
    await waitFor(() => begunRequests(mock) >= begunBefore + IN_FLIGHT, `the mock begins ${IN_FLIGHT} requests`)

    const signalled = performance.now()
    // process.kill, not execa's kill: that one adds a SIGKILL 5 s later, which would hide a slow stop.
    process.kill(mock.cli.pid!, 'SIGTERM')
    await waitFor(() => mock.output().includes('SIGTERM: stopping the mock.'), 'the mock says it is stopping')
    const late = await sendTimed(mock.url, { url: '/api/users/me', token: 'owner-token' }, { agent: false })

    const answers = await Promise.all(inFlight)
    const result = await Promise.race([mock.cli, sleep(WITHIN_MS).then(() => undefined)])
    const stoppedAfterMs = performance.now() - signalled

    expect(
      answers.filter((answer) => answer.status !== (answer.request.method === 'DELETE' ? 204 : 200)),
      answers.map((answer) => `${answer.request.method ?? 'GET'} ${answer.status ?? answer.error}`).join(', '),
    ).toEqual([])
    // They were in flight: all answered after the signal.
    expect(answers.filter((answer) => answer.answeredAt < signalled)).toEqual([])
    expect(late.error ?? late.status, 'a new connection after the signal').toBeOneOf([
      'ECONNREFUSED',
      'ECONNRESET',
      200,
    ])
    expect(result, `the mock still ran ${WITHIN_MS} ms after SIGTERM`).toBeDefined()
    expect(result!.signal).toBeUndefined()
    expect(result!.exitCode).toBe(0)
    expect(stoppedAfterMs).toBeLessThan(WITHIN_MS)
  } finally {
    agent.destroy()
  }
})

test('a request that would outlast the grace period does not hold the stop: exit code 0 within ~5 s', async () => {
  const mock = await startCli(['--quiet'])
  const agent = new Agent({ keepAlive: true })
  try {
    const held = sendTimed(
      mock.url,
      { url: '/api/users/me', token: 'owner-token', headers: { prefer: 'delay=60000' } },
      { agent },
    )
    // The request reaches the mock before the signal: it is in flight, not refused.
    await sleep(500)
    const signalled = performance.now()
    process.kill(mock.cli.pid!, 'SIGTERM')
    const result = await Promise.race([mock.cli, sleep(WITHIN_MS + 5_000).then(() => undefined)])
    const stoppedAfterMs = performance.now() - signalled
    expect(result, 'the mock still ran long after SIGTERM').toBeDefined()
    expect(result!.exitCode).toBe(0)
    expect(result!.stderr).toContain('Requests still running after 5 s')
    expect(stoppedAfterMs).toBeGreaterThanOrEqual(4_900)
    expect(stoppedAfterMs).toBeLessThan(WITHIN_MS)
    expect((await held).error).toBeDefined()
  } finally {
    agent.destroy()
  }
}, 30_000)
