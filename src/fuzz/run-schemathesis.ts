import { finished } from 'node:stream/promises'
import { execa } from 'execa'
import type { WritingProcess } from '../files/scratch-directory.js'
import type { SchemathesisCommand } from './schemathesis-command.js'
import { createSafeOutput } from './safe-output.js'

/**
 * Runs `st` in `cwd` (a scratch directory: Schemathesis keeps its example database and crash files in
 * its working directory), its progress passed on to this process's stdout and stderr as it happens,
 * through `createSafeOutput`: Schemathesis quotes the target's answers, control characters and all.
 * `rewrite` is applied to each line (the guard's URL back to the target's). Resolves to Schemathesis's
 * exit code; a kill by signal is -1.
 */
export async function runSchemathesis(
  command: SchemathesisCommand,
  cwd: string,
  rewrite?: (line: string) => string,
  /** Told of the child once started (the scratch directory stops it before it goes, on a signal). */
  onStart?: (child: WritingProcess) => void,
): Promise<number> {
  // Plain text: every control character that comes through is escaped, so colours and the animated
  // progress of rich (which takes any FORCE_COLOR, even 0, for a terminal) would only be noise.
  const env: Record<string, string | undefined> = { ...process.env, ...command.env, NO_COLOR: '1' }
  delete env.FORCE_COLOR
  // Schemathesis talks to the kit's guard on 127.0.0.1: never through an HTTP(S)_PROXY of the environment.
  for (const name of ['NO_PROXY', 'no_proxy']) env[name] = [env[name], '127.0.0.1'].filter(Boolean).join(',')
  const child = execa(command.file, command.args, {
    cwd,
    env,
    extendEnv: false,
    stdio: ['ignore', 'pipe', 'pipe'],
    buffer: false,
    reject: false,
  })
  onStart?.(child)
  const outputs = [child.stdout.pipe(createSafeOutput(rewrite)), child.stderr.pipe(createSafeOutput(rewrite))] as const
  outputs[0].pipe(process.stdout, { end: false })
  outputs[1].pipe(process.stderr, { end: false })
  const result = await child
  await Promise.all(outputs.map((output) => finished(output)))
  return result.exitCode ?? -1
}

/** `st --version` → `4.32.5`, or undefined when it does not run or says something else. */
export async function readSchemathesisVersion(file: string): Promise<string | undefined> {
  const result = await execa(file, ['--version'], { reject: false, timeout: 30_000 })
  return /version (\d+\.\d+\.\d+\S*)/.exec(result.stdout)?.[1]
}
