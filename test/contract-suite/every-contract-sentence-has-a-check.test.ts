import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, test } from 'vitest'
import { describeCoverageProblems, renderCoveragePage } from '../../scripts/generate-contract-coverage.js'
import type { ContractSentence } from '../../src/contract/rules/contract-sentences.js'
import { CONTRACT_COVERAGE_PATH } from '../../contract-tests/traceability/render-contract-coverage.js'
import { traceContractCoverage } from '../../contract-tests/traceability/trace-contract-coverage.js'

// Traceability: every requirement of docs/contract.md §1–§6 is proved by named checks of the contract
// suite, or says why no check over HTTP can; a choice the contract leaves open is asserted by none;
// docs/contract-coverage.md shows the mapping.

describe('the contract suite, sentence by sentence', () => {
  let rendered: Awaited<ReturnType<typeof renderCoveragePage>>
  beforeAll(async () => {
    // vitest collects the suite (no check runs, no request is sent): a few seconds.
    rendered = await renderCoveragePage()
  }, 60_000)

  test('every sentence has a check, or a reason why it cannot be tested over HTTP', () => {
    const problems = describeCoverageProblems(rendered.coverage)
    expect(problems, problems.join('\n')).toEqual([])
  })

  test('docs/contract-coverage.md is what the checks say now', async () => {
    const current = await readFile(CONTRACT_COVERAGE_PATH, 'utf8').catch(() => '')
    expect(current === rendered.page, 'docs/contract-coverage.md is stale: run npm run coverage:contract').toBe(true)
  })
})

describe('the mapping itself', () => {
  const sentences: ContractSentence[] = [
    { id: '§9.tested', text: 'A rule a check proves.' },
    { id: '§9.untested', text: 'A rule nobody checks.' },
    { id: '§9.untestable', text: 'A rule HTTP cannot see.', reason: 'It happens inside the server.' },
    {
      id: '§9.open',
      text: 'A choice left to the implementation.',
      open: 'Either answer: the mock says one, the other the other.',
    },
  ]
  const check = (title: string, tags: string[]) => ({ file: 'contract-tests/x.contract.test.ts', title, tags })

  test('finds a sentence without a check or a reason, and a tag that names no sentence', () => {
    const coverage = traceContractCoverage(sentences, [
      check('proves it', ['§9.tested']),
      check('names a typo', ['§9.tseted']),
      check('has no tag', []),
    ])
    expect(describeCoverageProblems(coverage)).toEqual([
      '§9.untested has no check and no reason why none can prove it',
      'contract-tests/x.contract.test.ts > names a typo: the tag §9.tseted names no sentence',
    ])
  })

  test('finds a sentence that says it cannot be tested although a check names it', () => {
    const coverage = traceContractCoverage(sentences, [
      check('proves all', ['§9.tested', '§9.untested', '§9.untestable']),
    ])
    expect(describeCoverageProblems(coverage)).toEqual([
      '§9.untestable has checks, and a reason why none can: drop one',
    ])
  })

  test('needs no check for a choice left open, and finds a check that asserts one', () => {
    const asserted = traceContractCoverage(sentences, [
      check('proves it', ['§9.tested', '§9.untested']),
      check('holds one answer', ['§9.open']),
    ])
    expect(describeCoverageProblems(asserted)).toEqual([
      '§9.open is a choice left open, yet holds one answer names it: a check asserts requirements only',
    ])
  })
})
