import type { SentenceId } from '../../src/contract/rules/contract-sentences.js'

/**
 * The options that name the sentences of docs/contract.md a check proves, as vitest tags (defined in
 * contract-tests/vitest.config.ts, one per sentence): docs/contract-coverage.md is built from them.
 *
 * @example
 * test('[core] an unknown token is a 401', covers('§2.unknown-token', '§2.invalid-token'), async () => …)
 */
export function covers(...ids: SentenceId[]): { tags: SentenceId[] } {
  return { tags: ids }
}
