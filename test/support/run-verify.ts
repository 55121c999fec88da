import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { execa } from 'execa'
import type { Target } from '../../src/contract/target/target.js'

export interface VerifyRun {
  exitCode: number
  output: string
  /** Failed checks: full name and failure messages, one string each. */
  failures: string[]
  passed: number
  failed: number
  skipped: number
  /** How long each check took, as the suite recorded it: its file's name and its full name. */
  durations: Array<{ file: string; name: string; ms: number }>
}

interface JsonReport {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  testResults: Array<{
    name: string
    message?: string
    assertionResults: Array<{ fullName: string; status: string; failureMessages: string[]; duration?: number | null }>
  }>
}

/** Runs `users-api-kit verify` (the built CLI, as users run it) against a target, with a JSON report. */
export async function runVerify(target: Target, extraArgs: string[] = []): Promise<VerifyRun> {
  const directory = await mkdtemp(join(tmpdir(), 'verify-run-'))
  const targetFile = join(directory, 'target.json')
  const reportFile = join(directory, 'report.json')
  await writeFile(targetFile, JSON.stringify(target))
  const result = await execa(
    'node',
    ['dist/bin/users-api-kit.js', 'verify', '--target', targetFile, '--json', reportFile, ...extraArgs],
    {
      reject: false,
      all: true,
      env: { FORCE_COLOR: '0', NO_COLOR: '1' },
      timeout: 120_000,
    },
  )
  const report = JSON.parse(
    await readFile(reportFile, 'utf8').catch(
      () => '{"numPassedTests":0,"numFailedTests":0,"numPendingTests":0,"testResults":[]}',
    ),
  ) as JsonReport
  // The target file holds the mock's tokens: nothing of the run is left behind.
  await rm(directory, { recursive: true, force: true })
  const failures = report.testResults.flatMap((file) => [
    ...(file.message ? [file.message] : []),
    ...file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => [test.fullName, ...test.failureMessages].join('\n')),
  ])
  return {
    exitCode: result.exitCode ?? -1,
    output: result.all ?? '',
    failures,
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests,
    durations: report.testResults.flatMap((file) =>
      file.assertionResults.map((test) => ({ file: basename(file.name), name: test.fullName, ms: test.duration ?? 0 })),
    ),
  }
}
