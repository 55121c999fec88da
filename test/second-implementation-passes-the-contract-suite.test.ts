import { afterAll, describe, expect, test } from 'vitest'
import { buildCliOnce } from './support/cli-mock-process.js'
import { runVerify, type VerifyRun } from './support/run-verify.js'
import { startSecondImplementation, stopSecondImplementations } from './support/second-implementation.js'

// N-version testing (STYLE.md habit 12): the contract suite passes, strict, on a second implementation
// of the users API written apart from the mock, in Python's standard library (test/second-implementation/),
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
    name: 'ids a URL must escape, gzip answers, two signatures a delivery, every event delivered twice',
    flags: [
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
