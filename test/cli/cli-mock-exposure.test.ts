import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { buildCliOnce, killRunningClis, startCli } from '../support/cli-mock-process.js'

// A mock left running on a team's network: who may call /__mock/*, and what its logs give away.

beforeAll(buildCliOnce, 120_000)

afterEach(killRunningClis)

const CONTROL_TOKEN = 'ctl-7c1e5b0a9d'
const WARNING = /Warning: the mock is open to your network .*--control-token/

function get(url: string, token?: string): Promise<Response> {
  return fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
}

describe('binding', () => {
  test('by default it binds 127.0.0.1 and warns of nothing', async () => {
    const { banner, output } = await startCli(['--quiet'])
    expect(banner).toMatch(/API\s+http:\/\/127\.0\.0\.1:\d+\/api\/users/)
    expect(output()).not.toMatch(WARNING)
  })

  test('--host 0.0.0.0 without a control token warns that /__mock/ is open and how to protect it', async () => {
    const { cli, url } = await startCli(['--quiet', '--host', '0.0.0.0'])
    expect((await get(`${url}/__mock/tokens`)).status).toBe(200)
    cli.kill('SIGTERM')
    const result = await cli
    expect(result.stderr).toMatch(WARNING)
    expect(result.stderr).toContain('USERS_API_KIT_CONTROL_TOKEN')
  })

  test('--host 0.0.0.0 with USERS_API_KIT_CONTROL_TOKEN: no warning, and /__mock/ needs that token', async () => {
    const { cli, url, banner } = await startCli(['--quiet', '--host', '0.0.0.0'], {
      env: { USERS_API_KIT_CONTROL_TOKEN: CONTROL_TOKEN },
    })
    expect(banner).not.toContain(CONTROL_TOKEN)
    expect(banner).toContain('Authorization: Bearer <control token>')
    expect((await get(`${url}/__mock/tokens`)).status).toBe(401)
    expect((await get(`${url}/__mock/tokens`, 'owner-token')).status).toBe(401)
    expect((await get(`${url}/__mock/tokens`, CONTROL_TOKEN)).status).toBe(200)
    expect((await get(`${url}/api/users/me`, 'owner-token')).status).toBe(200)
    cli.kill('SIGTERM')
    expect((await cli).stderr).not.toMatch(WARNING)
  })

  test('--host 0.0.0.0: CORS allows no other origin unless --cors lists it, and the output says how', async () => {
    const origin = 'https://any-page.example'
    const ask = (url: string, from: string) =>
      fetch(`${url}/api/users/me`, { headers: { authorization: 'Bearer owner-token', origin: from } })
    const shared = await startCli(['--quiet', '--host', '0.0.0.0', '--control-token', CONTROL_TOKEN])
    expect((await ask(shared.url, origin)).headers.get('access-control-allow-origin')).toBeNull()
    shared.cli.kill('SIGTERM')
    expect((await shared.cli).stderr).toContain('CORS is off')
    const listed = await startCli(['--quiet', '--host', '0.0.0.0', '--cors', origin], {
      env: { USERS_API_KIT_CONTROL_TOKEN: CONTROL_TOKEN },
    })
    expect((await ask(listed.url, origin)).headers.get('access-control-allow-origin')).toBe(origin)
    expect((await ask(listed.url, 'https://other.example')).headers.get('access-control-allow-origin')).toBeNull()
    const local = await startCli(['--quiet'])
    expect((await ask(local.url, origin)).headers.get('access-control-allow-origin')).toBe(origin)
  })

  test('--control-token on the command line works the same', async () => {
    const { url } = await startCli(['--quiet', '--control-token', CONTROL_TOKEN])
    expect((await get(`${url}/__mock/state`)).status).toBe(401)
    expect((await get(`${url}/__mock/state`, CONTROL_TOKEN)).status).toBe(200)
  })
})

describe('request logs', () => {
  test('with a control token (a shared mock), the output logs every request but never a token', async () => {
    const refused = 'tok_not-a-real-token-123'
    const { cli, url } = await startCli(['--control-token', CONTROL_TOKEN])
    await get(`${url}/api/users/me`, 'owner-token')
    await get(`${url}/api/users?search=ada`, 'admin-token')
    await get(`${url}/api/users/me`, refused)
    await get(`${url}/__mock/tokens`, CONTROL_TOKEN)
    await get(`${url}/__mock/tokens`, 'viewer-token')
    await fetch(`${url}/api/users/me`, { headers: { authorization: 'owner-token' } })
    cli.kill('SIGTERM')
    const { stdout, stderr } = await cli
    const logs = `${stdout}\n${stderr}`
    // The logs are there (JSON lines when stdout is no terminal): the assertion below can fail. The
    // banner counts too: it lists no token when the mock is shared.
    expect(logs).toContain('/api/users?search=ada')
    expect(logs).toContain('"statusCode":401')
    for (const token of ['owner-token', 'admin-token', 'viewer-token', refused, CONTROL_TOKEN]) {
      expect(logs, token).not.toContain(token)
    }
  })

  test('without one (a developer alone), the banner shows fixture tokens, the request logs never', async () => {
    const { cli, url, banner } = await startCli([])
    expect(banner).toContain("curl -H 'Authorization: Bearer owner-token'")
    await get(`${url}/api/users/me`, 'owner-token')
    await get(`${url}/api/users/me`, 'tok_unknown-456')
    cli.kill('SIGTERM')
    const { stdout } = await cli
    const logs = stdout.slice(stdout.indexOf('Ctrl-C stops it.'))
    expect(logs).toContain('"statusCode":401')
    for (const token of ['owner-token', 'tok_unknown-456']) expect(logs, token).not.toContain(token)
  })
})
