import { beforeAll, expect, test } from 'vitest'
import { checkBaseUrl } from '../../src/contract/target/resolve-target.js'
import { buildCliOnce, runCli } from '../support/cli-mock-process.js'

// `--base-url` mistakes get their own diagnosis, not "is the mock running?" or "a control token".

beforeAll(buildCliOnce, 120_000)

test.each([
  ['127.0.0.1:4010', 'has no scheme: give --base-url http://127.0.0.1:4010'],
  ['localhost:4010/', 'has no scheme: give --base-url http://localhost:4010'],
  [
    'http://127.0.0.1:4010/api',
    "points into the users API (/api); give the mock's root instead: --base-url http://127.0.0.1:4010",
  ],
  ['https://mock.example/team/api/users', '--base-url https://mock.example/team'],
  ['ftp://127.0.0.1:4010', 'is not http or https'],
])('%s: %s', (baseUrl, diagnosis) => {
  expect(() => checkBaseUrl(baseUrl)).toThrow(diagnosis)
})

test('a base URL with a path of its own, or a trailing slash, is fine', () => {
  expect(checkBaseUrl('https://mock.example/team/')).toBe('https://mock.example/team')
  expect(checkBaseUrl('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010')
})

test('verify says it and exits 2 before sending anything', async () => {
  const run = await runCli(['verify', '--base-url', 'http://127.0.0.1:1/api'])
  expect(run.exitCode).toBe(2)
  expect(run.stderr).toContain('--base-url http://127.0.0.1:1')
  expect(run.stderr).not.toMatch(/control token|Is the mock running/)
})
