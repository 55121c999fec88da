import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { parseMockArgs } from '../../src/cli/parse-mock-args.js'
import { buildCliOnce, killRunningClis, runCli, startCli } from '../support/cli-mock-process.js'
import { startReceiver } from '../support/test-receiver.js'

beforeAll(buildCliOnce)
afterAll(killRunningClis)

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

describe('users-api-kit mock --webhook', () => {
  test('sends the events to every --webhook URL, signed with --webhook-secret, and the banner says where and how', async () => {
    const receiver = await startReceiver()
    try {
      const { banner, url } = await startCli(['--webhook', receiver.url, '--webhook-secret', SECRET, '--quiet'])
      expect(banner).toContain(`Webhook  ${receiver.url}`)
      // Given, so masked (test/cli/banner-prints-state-inert.test.ts: --show-secrets prints it).
      expect(banner).toContain('Signed   with whsec_*** from --webhook-secret')
      expect(banner).toContain(`Events   ${url}/__mock/events`)
      const response = await fetch(`${url}/api/users/usr_acmeviewerqqqqqqqqqq`, {
        method: 'PATCH',
        headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'From the CLI' }),
      })
      expect(response.status).toBe(200)
      await receiver.until(1)
      const [delivery] = receiver.received
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(delivery?.headers[name])]),
      )
      expect(new Webhook(SECRET).verify(delivery?.body ?? '', headers)).toMatchObject({ type: 'user.updated' })
    } finally {
      await receiver.close()
    }
  })

  test('without --webhook-secret, a new secret is made and printed', async () => {
    const { banner } = await startCli(['--quiet'])
    expect(banner).toMatch(/Signed {3}with whsec_[A-Za-z0-9+/]{32} \(Standard Webhooks\)/)
  })

  test.each([
    [['--webhook', 'not a url'], /--webhook: A webhook endpoint is an http or https URL/],
    [['--webhook-secret', 'secret'], /--webhook-secret: The webhook secret must be whsec_/],
    [['--webhook-retry-delays', '1s,2s'], /at least three growing delays/],
    [['--webhook-retry-delays', '5s,1s,2s'], /at least three growing delays/],
    [['--webhook-allow-host', 'http://hooks.example/'], /--webhook-allow-host takes a host name or address/],
  ])('%j is refused, saying what is expected', async (args, message) => {
    const result = await runCli(['mock', '--port', '0', ...args])
    expect(result.exitCode).not.toBe(0)
    expect(result.stderr).toMatch(message)
  })

  test('reads repeated --webhook-allow-host as hosts', () => {
    const parsed = parseMockArgs(['--webhook-allow-host', 'Hooks.Example.com', '--webhook-allow-host', '[fd00::1]'])
    expect(parsed.webhookAllowHosts).toEqual(['hooks.example.com', '[fd00::1]'])
  })

  test('reads the retry schedule, the secret from USERS_API_KIT_WEBHOOK_SECRET, and repeated --webhook', () => {
    const parsed = parseMockArgs(
      ['--webhook', 'http://a.test/x', '--webhook', 'http://b.test/y', '--webhook-retry-delays', '250ms,1s,1.5s,1m'],
      { USERS_API_KIT_WEBHOOK_SECRET: SECRET },
    )
    expect(parsed.webhooks).toEqual({
      endpoints: [{ url: 'http://a.test/x' }, { url: 'http://b.test/y' }],
      secret: SECRET,
      retryDelaysMs: [250, 1000, 1500, 60000],
    })
  })
})
