import type * as VitestNode from 'vitest/node'
import { AppError } from '../../errors.js'
import { findPeerProblem } from '../../files/optional-peer.js'

/**
 * vitest's Node API, which runs the contract suite. vitest is an optional peer dependency of the kit
 * (docs/decisions/0011-vitest-an-optional-peer.md): a project that uses the mock alone never installs
 * its toolchain, and `verify` and `gate` ask for it in one line.
 *
 * @throws AppError('VALIDATION_FAILED') naming the vitest to install, when none is installed or its
 * major version is not the one the kit runs on.
 * @example
 * const { startVitest } = await loadVitest()
 */
export async function loadVitest(): Promise<typeof VitestNode> {
  const problem = await findVitestProblem()
  if (problem !== undefined) throw new AppError('VALIDATION_FAILED', problem)
  return import('vitest/node')
}

/** Why the installed vitest cannot run the suite, in one line; undefined when it can (gate asks first). */
export function findVitestProblem(): Promise<string | undefined> {
  return findPeerProblem('vitest', 'verify runs the contract suite on vitest')
}
