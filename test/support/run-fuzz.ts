import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import type { Target } from '../../src/target/target-format.js'

export interface CliRun {
  exitCode: number
  /** stdout and stderr, interleaved as printed (Schemathesis's progress, then the kit's summary). */
  output: string
  /** The JUnit report it wrote, or undefined. */
  junit?: string
  /** Where the target file and the report are. */
  directory: string
}

/**
 * Runs the built CLI (`fuzz` or `gate`, as users run it) against a target written to a file, with
 * `--junit <directory>/<junitName>`. One Schemathesis process at a time per test file: callers await
 * each run (on 2 cores vitest runs one test file at a time, so no two Schemathesis runs overlap).
 */
export async function runKit(
  command: 'fuzz' | 'gate',
  target: Target,
  extraArgs: string[] = [],
  junitName = 'report.xml',
): Promise<CliRun> {
  const directory = await mkdtemp(join(tmpdir(), `${command}-run-`))
  const targetFile = join(directory, 'target.json')
  const junit = join(directory, junitName)
  await writeFile(targetFile, JSON.stringify(target))
  const result = await execa(
    'node',
    ['dist/bin/users-api-kit.js', command, '--target', targetFile, '--junit', junit, ...extraArgs],
    { reject: false, all: true, env: { FORCE_COLOR: '0', NO_COLOR: '1' }, timeout: 240_000 },
  )
  // The target file holds the mock's tokens; the reports stay for the test to read.
  await rm(targetFile, { force: true })
  return {
    exitCode: result.exitCode ?? -1,
    output: result.all ?? '',
    junit: await readFile(junit, 'utf8').catch(() => undefined),
    directory,
  }
}

/** The checks the kit's summary names, with their counts: `not_a_server_error (2)` → ['not_a_server_error', 2]. */
export function checksInSummary(output: string): Map<string, number> {
  const summary = output.slice(output.lastIndexOf('users-api-kit fuzz:'))
  return new Map([...summary.matchAll(/^(\w+) \((\d+)\)$/gm)].map((match) => [match[1] ?? '', Number(match[2])]))
}
