import { DISPOSABLE_USERS_NEEDED } from '../../src/target/disposable-slots.js'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { parseTarget, PLACEHOLDER } from '../../src/contract/target/target.js'
import { buildCliOnce, runCli } from '../support/cli-mock-process.js'

// A newcomer without a target file is told how to make one, and gets one to fill in.

let directory: string

beforeAll(async () => {
  await buildCliOnce()
  directory = await mkdtemp(join(tmpdir(), 'users-api-kit-init-target-'))
}, 120_000)

test('verify with a missing target file says the command that writes one', async () => {
  const run = await runCli(['verify', '--target', join(directory, 'missing.json')])
  expect(run.exitCode).toBe(2)
  expect(run.stderr).toContain(`npx users-api-kit init-target ${join(directory, 'missing.json')}`)
})

test('init-target writes every field to fill in; verify refuses it, naming the first placeholder', async () => {
  const file = join(directory, 'staging.target.json')
  const written = await runCli(['init-target', file])
  expect(written.exitCode).toBe(0)
  expect(written.stdout).toContain(`users-api-kit verify --target ${file}`)
  const template = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
  expect(Object.keys(template)).toEqual([
    '$schema',
    '$comment',
    'baseUrl',
    'actors',
    'inactive',
    'disposable',
    'webhooks',
  ])
  const refused = await runCli(['verify', '--target', file])
  expect(refused.exitCode).toBe(2)
  expect(refused.stderr).toContain('Fill in /baseUrl')
})

test('filled in (an actor and an inactive user deleted), the template is a valid target', async () => {
  const file = join(directory, 'filled.target.json')
  await runCli(['init-target', file])
  const filled = (await readFile(file, 'utf8')).replace(
    new RegExp(`"${PLACEHOLDER}[^"]*"`, 'g'),
    (_match, offset: number) => `"x${offset}"`,
  )
  const document = JSON.parse(filled) as {
    baseUrl: string
    actors: Record<string, unknown>
    inactive: Record<string, unknown>
    webhooks: { secret: string }
  }
  document.baseUrl = 'https://staging.example.com'
  document.webhooks.secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
  delete document.actors['bot']
  delete document.inactive['invited']
  const target = parseTarget(document)
  expect(Object.keys(target.actors).sort()).toEqual(['admin', 'outsider', 'owner', 'viewer'])
  expect(Object.keys(target.inactive ?? {})).toEqual(['suspended'])
  expect(target.disposable).toHaveLength(DISPOSABLE_USERS_NEEDED)
  expect(target.webhooks).toEqual({ listen: '0.0.0.0:9999', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
})

test('init-target never overwrites a file unless --force', async () => {
  const file = join(directory, 'mine.json')
  await writeFile(file, '{"baseUrl":"https://mine.example"}')
  const refused = await runCli(['init-target', file])
  expect(refused.exitCode).toBe(1)
  expect(await readFile(file, 'utf8')).toBe('{"baseUrl":"https://mine.example"}')
  expect((await runCli(['init-target', file, '--force'])).exitCode).toBe(0)
})
