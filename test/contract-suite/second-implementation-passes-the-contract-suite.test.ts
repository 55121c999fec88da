import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, describe, expect, test } from 'vitest'
import { buildCliOnce } from '../support/cli-mock-process.js'
import { runVerify, type VerifyRun } from '../support/run-verify.js'
import { startSecondImplementation, stopSecondImplementations } from '../support/second-implementation.js'

// N-version testing (STYLE.md habit 12): the contract suite passes, strict, on a second implementation
// of the users API written apart from the mock, in Python's standard library (test/support/second-implementation/),
// which answers differently wherever docs/contract.md leaves a choice. Each variant below is a correct
// backend of its own: a check that fails on one asserts a choice, not the contract.

/** Legitimate backends: the second implementation's choices, and its switches set other ways. */
const VARIANTS: Array<{ name: string; flags: string[] }> = [
  {
    name: 'its own choices: typed problems, no charset, a realm, 151 issues for 150 keys, whole seconds, extra fields',
    flags: [],
  },
  {
    name: "the mock's choices where it has a switch: about:blank, charset, no realm, milliseconds, no extra fields",
    flags: [
      '--problem-type',
      'blank',
      '--charset',
      'yes',
      '--realm',
      'no',
      '--count-required-issue',
      'no',
      '--allow-order',
      'mock',
      '--allow-extras',
      'no',
      '--timestamps',
      'millis',
      '--extra-fields',
      'no',
    ],
  },
  {
    name: "ids a URL must escape, gzip answers, two signatures a delivery, every event delivered twice, Unicode's simple lower-case mapping",
    flags: [
      '--lower',
      'simple',
      '--id-style',
      'odd',
      '--compress',
      'yes',
      '--signatures',
      '2',
      '--deliver-twice',
      'yes',
      '--allow-order',
      'alpha',
    ],
  },
]

afterAll(stopSecondImplementations)

/** The gate's variants: its own choices, and ids a URL must escape ("/", "%", spaces). */
const GATE_VARIANTS: Array<{ name: string; flags: string[] }> = [
  { name: 'its own choices', flags: [] },
  { name: 'ids a URL must escape ("/", "%", spaces)', flags: ['--id-style', 'odd'] },
]

describe.concurrent('the gate against a second implementation written apart from the mock', () => {
  for (const { name, flags } of GATE_VARIANTS)
    test(`passes: verify strict, and Schemathesis finds nothing in a correct backend that chose otherwise: ${name}`, async () => {
      // Schemathesis is in .venv/ already: vitest's globalSetup made it (test/support/prepare-tests.ts).
      await buildCliOnce()
      const { target, stop } = await startSecondImplementation(flags)
      const directory = await mkdtemp(join(tmpdir(), 'second-implementation-gate-'))
      const targetFile = join(directory, 'target.json')
      try {
        await writeFile(targetFile, JSON.stringify(target))
        const gate = await execa(
          'node',
          [
            'dist/bin/users-api-kit.js',
            'gate',
            '--target',
            targetFile,
            '--max-examples',
            '20',
            '--seed',
            '1',
            '--out',
            directory,
          ],
          { reject: false, all: true, env: { NO_COLOR: '1' }, timeout: 170_000 },
        )
        expect(gate.all).toMatch(/verify {2}✓ \d+ checks? passed, 0 failed, 0 skipped/)
        expect(gate.all).toMatch(/fuzz {4}✓ no findings/)
        expect(gate.exitCode, gate.all).toBe(0)
      } finally {
        await stop()
        await rm(directory, { recursive: true, force: true })
      }
    }, 180_000)
})

describe.concurrent('the contract suite, strict, against a second implementation written apart from the mock', () => {
  for (const variant of VARIANTS) {
    test(`passes every check and skips none: ${variant.name}`, async () => {
      await buildCliOnce()
      const { target, stop } = await startSecondImplementation(variant.flags)
      let run: VerifyRun
      try {
        run = await runVerify(target, ['--strict'])
      } finally {
        await stop()
      }
      expect(run.failures, run.output).toEqual([])
      expect(run.skipped, run.output).toBe(0)
      expect(run.exitCode, run.output).toBe(0)
      expect(run.passed).toBeGreaterThan(300)
    }, 180_000)
  }
})
