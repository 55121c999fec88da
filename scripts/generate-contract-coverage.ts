import { writeFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { readContractSections } from '../src/contract/rules/contract-sections.js'
import { collectTaggedChecks } from '../contract-tests/traceability/collect-tagged-checks.js'
import { CONTRACT_SENTENCES } from '../src/contract/rules/contract-sentences.js'
import {
  CONTRACT_COVERAGE_PATH,
  renderContractCoverage,
} from '../contract-tests/traceability/render-contract-coverage.js'
import { traceContractCoverage, type ContractCoverage } from '../contract-tests/traceability/trace-contract-coverage.js'

/**
 * docs/contract-coverage.md from the tags of the contract suite's checks (`npm run coverage:contract`).
 * It collects the suite with vitest (a few seconds, no request sent), so the build does not run it;
 * test/contract-suite/every-contract-sentence-has-a-check.test.ts fails when the page is stale.
 */
export async function renderCoveragePage(): Promise<{ coverage: ContractCoverage; page: string }> {
  const coverage = traceContractCoverage(CONTRACT_SENTENCES, await collectTaggedChecks())
  return { coverage, page: await renderContractCoverage(coverage, await readContractSections()) }
}

/** What is wrong with the mapping, one line each; [] when every sentence is covered or says why not. */
export function describeCoverageProblems(coverage: ContractCoverage): string[] {
  return [
    ...coverage.uncovered.map((sentence) => `${sentence.id} has no check and no reason why none can prove it`),
    ...coverage.strayTags.map(({ check, tag }) => `${check.file} > ${check.title}: the tag ${tag} names no sentence`),
    ...coverage.coveredWithReason.map((sentence) => `${sentence.id} has checks, and a reason why none can: drop one`),
    ...coverage.openAsserted.map(
      ({ sentence, checks }) =>
        `${sentence.id} is a choice left open, yet ${checks.map((check) => check.title).join('; ')} names it: a check asserts requirements only`,
    ),
  ]
}

async function main(): Promise<void> {
  const { coverage, page } = await renderCoveragePage()
  await writeFile(CONTRACT_COVERAGE_PATH, page)
  const problems = describeCoverageProblems(coverage)
  console.log(`Wrote docs/contract-coverage.md (${coverage.sentences.length} sentences).`)
  for (const problem of problems) console.error(`  ${problem}`)
  if (problems.length > 0) process.exitCode = 1
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
