/**
 * What names one check across vitest's reports: its test file and its full name, the titles of its
 * describe blocks and its own joined by ` > ` (vitest's `TestCase.fullName`).
 *
 * @example
 * checkKey('/kit/contract-tests/get-user.contract.test.ts', 'GET /api/users/me > [core] …')
 */
export function checkKey(file: string, fullName: string): string {
  return `${file}\n${fullName}`
}

/** Why a check that never ran for a failed hook of its file (beforeAll) counts as failed. */
export const HOOK_FAILED = 'did not run: a hook of its test file failed'
