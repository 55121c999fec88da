import { afterEach, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../../src/server/start-mock.js'
import type { User } from '../../src/domain/user.js'
import { checksInSummary, runKit } from '../support/run-fuzz.js'

// Each run is one Schemathesis process against a mock in this process: sequential, bounded examples.
const FUZZ_TIMEOUT = 180_000

let mock: RunningMock | undefined
afterEach(async () => {
  await mock?.close()
  mock = undefined
})

async function usersOf(running: RunningMock): Promise<Map<string, User>> {
  const state = (await (await fetch(`${running.url}/__mock/state`)).json()) as { users: User[] }
  return new Map(state.users.map((user) => [user.id, user]))
}

describe('users-api-kit fuzz against a fresh mock', () => {
  test(
    'finds nothing with every check and the stateful phase, exits 0 and writes JUnit; writes touch only disposable users',
    async () => {
      mock = await startMock({ users: 20 })
      const before = await usersOf(mock)
      const run = await runKit('fuzz', mock.target, ['--max-examples', '15', '--seed', '1'])

      expect(run.output).toContain('users-api-kit fuzz: no findings.')
      expect(run.exitCode, run.output).toBe(0)
      // The stateful phase ran, through the document's links.
      expect(run.output).toMatch(/Stateful[\s\S]*?Scenarios:\s+[1-9]/)
      expect(run.junit).toMatch(/<testsuite [^>]*name="users-api-kit fuzz"[^>]*failures="0"/)
      expect(run.junit).toContain('<testcase name="PATCH /api/users/{id}"')

      // Safety: the list's first user is the owner, yet no user but the disposable ones changed.
      const after = await usersOf(mock)
      const disposable = new Set(mock.target.disposable.map((user) => user.id))
      for (const [id, user] of before) {
        if (!disposable.has(id)) expect(after.get(id), `${user.name} (${user.role}) changed`).toEqual(user)
      }
      // …and writes did happen: some disposable user was changed or deleted.
      const touched = [...disposable].filter((id) => JSON.stringify(after.get(id)) !== JSON.stringify(before.get(id)))
      expect(touched.length).toBeGreaterThan(0)
    },
    FUZZ_TIMEOUT,
  )

  test(
    '--read-only changes nobody, disposable users included',
    async () => {
      mock = await startMock({ users: 20 })
      const before = await usersOf(mock)
      const run = await runKit('fuzz', mock.target, ['--read-only', '--max-examples', '5', '--seed', '2'])

      expect(run.exitCode, run.output).toBe(0)
      expect(run.junit).not.toContain('PATCH /api/users/{id}')
      expect(await usersOf(mock)).toEqual(before)
    },
    FUZZ_TIMEOUT,
  )
})

describe('fuzz --as: each role in a Schemathesis run of its own, with its token', () => {
  test(
    '--as admin,viewer,bot sends each token, in three runs, each finding nothing; -- passes options to st run',
    async () => {
      mock = await startMock({ users: 5 })
      const seen = new Set<string>()
      // Every request's token, as the server received it (a listener beside Fastify's own).
      mock.app.server.on('request', (request: { url?: string; headers: { authorization?: string } }) => {
        if (request.url?.startsWith('/api/')) seen.add(String(request.headers.authorization))
      })
      const run = await runKit('fuzz', mock.target, [
        '--as',
        'admin,viewer,bot',
        '--max-examples',
        '3',
        '--seed',
        '3',
        '--',
        '--phases',
        'examples,coverage',
      ])

      expect(run.exitCode, run.output).toBe(0)
      for (const role of ['admin', 'viewer', 'bot']) {
        expect(run.output).toContain(`users-api-kit fuzz: as ${role}`)
        expect(run.output).toContain(`users-api-kit fuzz as ${role}: no findings.`)
        expect(run.junit).toContain(`name="users-api-kit fuzz (as ${role})"`)
        expect(seen, role).toContain(`Bearer ${role}-token`)
      }
      // The owner's token was not sent; the phases after -- replaced the kit's (no stateful phase).
      expect(seen).not.toContain('Bearer owner-token')
      expect(run.output).toMatch(/Stateful \(disabled\)/)
    },
    FUZZ_TIMEOUT,
  )

  test('--as with a name the target has no actor of says so, and exits 2', async () => {
    mock = await startMock({ users: 2 })
    const run = await runKit('fuzz', mock.target, ['--as', 'owner,superuser'])
    expect(run.exitCode).toBe(2)
    expect(run.output).toContain("--as takes the target's actors")
  })
})

describe('users-api-kit fuzz exits 2 when it cannot run', () => {
  test('without Schemathesis, and says the one command that installs it', async () => {
    mock = await startMock({ users: 2 })
    const run = await runKit('fuzz', mock.target, ['--schemathesis', '/nonexistent/st'])
    expect(run.exitCode).toBe(2)
    expect(run.output).toMatch(/Install it with: npm run setup:fuzz/)
    expect(checksInSummary(run.output).size).toBe(0)
  })

  test('when the target is unreachable', async () => {
    mock = await startMock({ users: 2 })
    const target = { ...mock.target }
    await mock.close()
    mock = undefined
    const run = await runKit('fuzz', target)
    expect(run.exitCode).toBe(2)
    expect(run.output).toMatch(/Cannot reach the target/)
  })

  test('when the target has no disposable users and the run may write', async () => {
    mock = await startMock({ users: 2 })
    const run = await runKit('fuzz', { ...mock.target, disposable: [] })
    expect(run.exitCode).toBe(2)
    expect(run.output).toMatch(/no disposable users.*--read-only/s)
  })

  test('when the target file is invalid', async () => {
    const run = await runKit('fuzz', { baseUrl: 'ftp://nowhere', actors: {}, disposable: [] })
    expect(run.exitCode).toBe(2)
    expect(run.output).toMatch(/not valid.*baseUrl/s)
  })
})
