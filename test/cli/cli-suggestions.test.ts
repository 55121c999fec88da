import { beforeAll, expect, test } from 'vitest'
import { didYouMean } from '../../src/cli/did-you-mean.js'
import { buildCliOnce, runCli } from '../support/cli-mock-process.js'

// A typo gets the nearest command or flag, and exit code 2; a word that is nothing like one gets none.

beforeAll(buildCliOnce, 120_000)

test.each([
  ['verfy', 'verify'],
  ['mokc', 'mock'],
  ['gtae', 'gate'],
  ['--prot', '--port'],
  ['--fixture', '--fixtures'],
])('didYouMean(%s) is %s', (typed, meant) => {
  expect(didYouMean(typed, ['mock', 'verify', 'fuzz', 'gate', '--port', '--fixtures', '--seed'])).toBe(meant)
})

test('a word unlike any known one gets no suggestion', () => {
  expect(didYouMean('banana', ['mock', 'verify', 'fuzz', 'gate'])).toBeUndefined()
})

test('the CLI suggests the command and the flag, and exits 2', async () => {
  const command = await runCli(['verfy'])
  expect(command.exitCode).toBe(2)
  expect(command.stderr).toContain('unknown command "verfy". Did you mean "verify"?')
  const flag = await runCli(['mock', '--prot', '4010'])
  expect(flag.exitCode).toBe(2)
  expect(flag.stderr).toMatch(/Unknown option '--prot'.*Did you mean --port\?/)
})
