import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { formatBanner, type BannerState } from '../../src/cli/mock-banner.js'
import { MOCK_USAGE, parseMockArgs } from '../../src/cli/parse-mock-args.js'
import type { MockState } from '../../src/domain/mock-state.js'
import { buildCliOnce, killRunningClis, startCli } from '../support/cli-mock-process.js'

// The banner prints values from the state and the fixtures, and a state is anyone's who reaches the
// control routes: an anonymous PUT /__mock/state and a restart put escape sequences on the developer's
// terminal and a command in the `Try:` line that pasting it ran. And it printed the webhook secret given.

const ESCAPES = '\u001b]0;owned\u0007\u001b[2J\u009b31m\u202e'
/** Tokens that break out of quotes, substitute commands or end the line, each creating the file PWNED. */
const HOSTILE_TOKENS = [
  "x'; touch PWNED; echo '",
  'x$(touch PWNED)',
  'x`touch PWNED`',
  'x\ntouch PWNED\n',
  `x${ESCAPES}`,
]

let folder: string

beforeAll(async () => {
  await buildCliOnce()
  folder = await mkdtemp(join(tmpdir(), 'users-api-kit-banner-'))
  // A curl that only says it ran, so that pasting the line sends nothing and shows what would run.
  await writeFile(join(folder, 'curl'), '#!/bin/sh\necho "curl ran with $# arguments" >> "$(dirname "$0")/ran"\n')
  await chmod(join(folder, 'curl'), 0o755)
}, 120_000)

afterEach(killRunningClis)

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

/** Every `Try:` line of a banner pasted into bash in `folder`, with its curl: what ran, and what was made. */
async function paste(banner: string): Promise<{ ran: string; files: string[] }> {
  const work = await mkdtemp(join(folder, 'paste-'))
  for (const line of banner.split('\n').filter((candidate) => candidate.includes('Try:'))) {
    const command = line.slice(line.indexOf('Try:') + 'Try:'.length).trim()
    await execa('bash', ['-c', command], { cwd: work, env: { PATH: `${folder}:/usr/bin:/bin` }, reject: false })
  }
  const files = (await readdir(work)).sort()
  const ran = await execa('cat', [join(folder, 'ran')], { reject: false })
  await rm(join(folder, 'ran'), { force: true })
  await rm(work, { recursive: true, force: true })
  return { ran: ran.stdout, files }
}

function stateWithOwnerToken(token: string): MockState {
  const organizationId = 'org_acmeqqqqqqqqqqqqqqqq'
  const user = (id: string, name: string, owned: string) => ({
    id,
    email: `${id}@example.com`,
    name,
    role: 'CLIENT_OWNER' as const,
    organizationId,
    status: 'ACTIVE' as const,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    token: owned,
  })
  return {
    organizations: [{ id: organizationId, name: 'Acme' }],
    users: [user('usr_first', 'First', token), user('usr_second', 'Second', 'plain-owner-token')],
  }
}

function bannerStateOf(state: MockState): BannerState {
  const tokenHolders = state.users.flatMap(({ token, role, status }) =>
    token === undefined ? [] : [{ token, role, status }],
  )
  return { organizations: state.organizations.length, users: state.users.length, tokenHolders }
}

describe('the banner, given a state with hostile tokens', () => {
  test.each(HOSTILE_TOKENS)(
    '%j: no control character reaches the terminal, and pasting Try: runs curl alone',
    async (token) => {
      const banner = formatBanner({
        url: 'http://127.0.0.1:4010',
        options: parseMockArgs([]),
        current: bannerStateOf(stateWithOwnerToken(token)),
        loadedStateFile: true,
        webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      })
      // eslint-disable-next-line no-control-regex -- raw control characters are what must not be printed
      expect(banner.replaceAll('\n', '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/)
      expect(banner).toContain(
        "Try:  curl -H 'Authorization: Bearer plain-owner-token' http://127.0.0.1:4010/api/users/me",
      )
      expect(await paste(banner)).toEqual({ ran: 'curl ran with 3 arguments', files: [] })
    },
  )

  test('a token planted by an anonymous PUT /__mock/state, then a restart: the banner is inert', async () => {
    const stateFile = join(folder, 'planted.json')
    const first = await startCli(['--quiet', '--state-file', stateFile])
    const state = (await (await fetch(`${first.url}/__mock/state`)).json()) as MockState
    const owner = state.users.find((user) => user.token === 'owner-token')
    for (const user of state.users) if (user.role === 'CLIENT_OWNER' && user !== owner) user.role = 'CLIENT_ADMIN'
    if (owner) owner.token = `${ESCAPES}'; touch PWNED; echo '`
    const put = await fetch(`${first.url}/__mock/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(state),
    })
    expect(put.status).toBe(200)
    first.cli.kill('SIGTERM')
    await first.cli
    const { banner } = await startCli(['--quiet', '--state-file', stateFile])
    expect(banner).not.toContain('\u001b')
    expect(banner).toContain('\\x1b]0;owned')
    expect((await paste(banner)).files).toEqual([])
  }, 30_000)
})

describe('secrets in the banner', () => {
  const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

  test('a --webhook-secret is masked, and --show-secrets prints it', async () => {
    const masked = await startCli(['--quiet', '--webhook-secret', SECRET])
    expect(masked.banner).not.toContain(SECRET)
    expect(masked.banner).toContain('Signed   with whsec_*** from --webhook-secret (--show-secrets prints it)')
    const shown = await startCli(['--quiet', '--webhook-secret', SECRET, '--show-secrets'])
    expect(shown.banner).toContain(`Signed   with ${SECRET} (Standard Webhooks)`)
  }, 30_000)

  test('so is one from USERS_API_KIT_WEBHOOK_SECRET', async () => {
    const { banner } = await startCli(['--quiet'], { env: { USERS_API_KIT_WEBHOOK_SECRET: SECRET } })
    expect(banner).not.toContain(SECRET)
    expect(banner).toContain('from USERS_API_KIT_WEBHOOK_SECRET')
  })

  test('credentials and the query of a --webhook URL are masked', async () => {
    const url = 'http://hook-user:hook-password@127.0.0.1:9/in?token=hook-query-token'
    const { banner } = await startCli(['--quiet', '--webhook', url])
    expect(banner).toContain('Webhook  http://***@127.0.0.1:9/in?***')
    for (const secret of ['hook-user', 'hook-password', 'hook-query-token']) expect(banner).not.toContain(secret)
  })

  test('a secret the mock made is printed: the banner is where its user learns it', async () => {
    const { banner } = await startCli(['--quiet'])
    expect(banner).toMatch(/Signed {3}with whsec_[A-Za-z0-9+/]{32} \(Standard Webhooks\)/)
  })

  test('mock --help says so', () => {
    expect(MOCK_USAGE).toContain('--show-secrets')
  })
})
