import { expect, test } from 'vitest'
import { bringSystemPackages, installCommand, type SystemPackage } from '../../scripts/prepare-tests.js'

// npm test's first step (scripts/prepare-tests.ts) on a machine without a system package the tests drive:
// one line at the start, and with CI set the run stops there, not twenty minutes later in the browser tests.

const absent: SystemPackage = { name: 'no-such-package', neededBy: 'a test of this step', present: () => false }

test('a missing package it may not install: one line saying what is skipped and the command that brings it', async () => {
  const lines: string[] = []
  await bringSystemPackages({ packages: [absent], mayInstall: false, env: {}, log: (line) => lines.push(line) })
  expect(lines).toEqual([
    'Skipping what needs no-such-package (a test of this step): not installed (sudo apt-get install -y no-such-package).',
  ])
})

test('with CI set, a missing package stops the run before any test, naming the command', async () => {
  const run = bringSystemPackages({ packages: [absent], mayInstall: false, env: { CI: 'true' }, log: () => {} })
  await expect(run).rejects.toThrow(
    'missing no-such-package (a test of this step), which CI must run: sudo apt-get install -y no-such-package',
  )
})

test('packages that are there: nothing said, nothing installed', async () => {
  const lines: string[] = []
  const present = { ...absent, present: () => true }
  await bringSystemPackages({ packages: [present], mayInstall: true, env: { CI: 'true' }, log: (l) => lines.push(l) })
  expect(lines).toEqual([])
})

test('the command names every missing package', () => {
  expect(installCommand([absent, { ...absent, name: 'chromium' }])).toBe(
    'sudo apt-get install -y no-such-package chromium',
  )
})
