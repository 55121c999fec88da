import { execa } from 'execa'
import type { SchemathesisCommand } from './schemathesis-command.js'

/**
 * Runs `st`, its progress going straight to this process's stdout and stderr as it happens, in `cwd`
 * (a scratch directory: Schemathesis keeps its example database and crash files in its working
 * directory). Resolves to Schemathesis's exit code; a kill by signal is -1.
 */
export async function runSchemathesis(command: SchemathesisCommand, cwd: string): Promise<number> {
  // Schemathesis's console (rich) takes any FORCE_COLOR, even 0, for a terminal and animates its
  // progress; into a pipe or a CI log that is a flood of redraws, so only a terminal passes it on.
  const env: Record<string, string | undefined> = { ...process.env, ...command.env }
  if (!process.stdout.isTTY) delete env.FORCE_COLOR
  const result = await execa(command.file, command.args, {
    cwd,
    env,
    extendEnv: false,
    stdio: ['ignore', 'inherit', 'inherit'],
    reject: false,
  })
  return result.exitCode ?? -1
}

/** `st --version` → `4.32.5`, or undefined when it does not run or says something else. */
export async function readSchemathesisVersion(file: string): Promise<string | undefined> {
  const result = await execa(file, ['--version'], { reject: false, timeout: 30_000 })
  return /version (\d+\.\d+\.\d+\S*)/.exec(result.stdout)?.[1]
}
