import type { ContractSentence } from '../../src/contract/rules/contract-sentences.js'
import type { TaggedCheck } from './collect-tagged-checks.js'

/** Which checks prove which sentence of docs/contract.md, and what is wrong with the mapping. */
export interface ContractCoverage {
  /** Every sentence, in the order of the contract, with the checks that name it. */
  sentences: Array<{ sentence: ContractSentence; checks: TaggedCheck[] }>
  /** Sentences that no check names and that give no reason why none can. */
  uncovered: ContractSentence[]
  /** Tags of checks that name no sentence. */
  strayTags: Array<{ check: TaggedCheck; tag: string }>
  /** Sentences a check names although they say no check can prove them. */
  coveredWithReason: ContractSentence[]
  /** Choices left open that a check names: a check asserts requirements only. */
  openAsserted: Array<{ sentence: ContractSentence; checks: TaggedCheck[] }>
}

/**
 * Maps the sentences to the checks whose tags name them. Untagged checks are allowed (a check may
 * prove conformance of responses only); a requirement without a check needs its reason; a choice left
 * open is named by no check (none may assert one of its answers).
 *
 * @example
 * traceContractCoverage(CONTRACT_SENTENCES, await collectTaggedChecks()).uncovered // []
 */
export function traceContractCoverage(
  sentences: readonly ContractSentence[],
  checks: readonly TaggedCheck[],
): ContractCoverage {
  const ids = new Set(sentences.map((sentence) => sentence.id))
  const mapped = sentences.map((sentence) => ({
    sentence,
    checks: checks.filter((check) => check.tags.includes(sentence.id)),
  }))
  return {
    sentences: mapped,
    uncovered: mapped
      .filter(({ sentence, checks }) => checks.length === 0 && !sentence.reason && !sentence.open)
      .map((m) => m.sentence),
    strayTags: checks.flatMap((check) => check.tags.filter((tag) => !ids.has(tag)).map((tag) => ({ check, tag }))),
    coveredWithReason: mapped
      .filter(({ sentence, checks }) => checks.length > 0 && sentence.reason)
      .map((m) => m.sentence),
    openAsserted: mapped.filter(({ sentence, checks }) => checks.length > 0 && sentence.open),
  }
}
