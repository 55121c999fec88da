import { afterEach } from 'vitest'

/**
 * Stryker's coverage, widened from each check to the checks of its file that ran before it. Checks of a
 * file share work: delete-user's one deletion, made by whichever check of its group runs first, serves
 * them all. Per check, Stryker credits the deletion's code to that first check alone and runs only it
 * against a mutant there; the checks that look at what the deletion left never run, and the mutant
 * survives (user-store.ts's deletion did). Widened, they run too.
 *
 * It reads Stryker's own global (`__stryker__`: the check running now and the coverage so far), as
 * Stryker's vitest setup file writes it; this afterEach runs before that file's own, which ends the check
 * (vitest runs after-hooks in reverse order). Outside Stryker's coverage run the global is absent.
 */
interface StrykerNamespace {
  currentTestId?: string
  mutantCoverage?: { perTest: Record<string, Record<string, number>> }
}

/** Call in a setup file: vitest runs it before each test file, whose hooks these are. */
export function widenCoverageToTheFile(): void {
  const earlier: string[] = []
  afterEach(() => {
    const stryker = (globalThis as { __stryker__?: StrykerNamespace }).__stryker__
    const id = stryker?.currentTestId
    const perTest = stryker?.mutantCoverage?.perTest
    if (id === undefined || perTest === undefined) return
    const own = (perTest[id] ??= {})
    for (const before of earlier)
      for (const [mutant, hits] of Object.entries(perTest[before] ?? {})) own[mutant] ??= hits
    earlier.push(id)
  })
}
