import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that take a minute or more, longest first (durations of npm test's runs on 2 cores, issue 38).
 * The pool hands the next file to whichever worker is free: started first, the long files run beside each
 * other and beside the many short ones, and the workers end together. On a fresh clone (CI) vitest has no
 * durations of an earlier run and orders files by size, so the kill rate (a small file, 3–4 minutes)
 * started near the end and ran alone for minutes while the other worker had nothing left: 770 s for
 * 1,312 s of files on two workers.
 */
const SLOWEST = [
  'contract-suite-kill-rate',
  'install-routes',
  'ci-example-runs-as-written',
  'documented-commands-run-as-written',
  'cli-verify',
  'answers-are-read-within-limits',
  'hostile-servers',
  'second-implementation-passes-the-contract-suite',
  'gate',
  'users-service-ci-workflow',
  'fuzz-mock',
  'failing-verdicts-come-quickly',
  'users-service-on-pglite',
  'fuzz-broken-servers',
  'proxy-carries-verify-and-fuzz',
]

/** vitest's own order (failed first, then by duration or size), with the slowest files before all others. */
export default class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (file: TestSpecification): number => {
      const index = SLOWEST.findIndex((name) => file.moduleId.endsWith(`/${name}.test.ts`))
      return index === -1 ? SLOWEST.length : index
    }
    return [...sorted].sort((a, b) => rank(a) - rank(b))
  }
}
