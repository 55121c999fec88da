#!/usr/bin/env node
import './stop-on-an-older-node.js'
import nodeModule from 'node:module'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { readPackageManifest } from '../files/read-package-manifest.js'
import { userCacheFolder } from '../files/user-cache-folder.js'
import { didYouMean } from './did-you-mean.js'

const USAGE = `users-api-kit — mock, contract suite and fuzzer for the users API

Usage:
  users-api-kit mock [options]     Start the stateful mock server (see: users-api-kit mock --help)
  users-api-kit verify [options]   Run the contract suite against a backend (see: users-api-kit verify --help)
  users-api-kit fuzz [options]     Fuzz a backend with Schemathesis (see: users-api-kit fuzz --help)
  users-api-kit gate [options]     verify + fuzz, one exit code and one JUnit file, for CI (see: users-api-kit gate --help)
  users-api-kit proxy [options]    Check a backend's live traffic against the contract (see: users-api-kit proxy --help)
  users-api-kit init-target [FILE] Write a target file to fill in, naming your backend and its tokens
  users-api-kit setup-fuzz         Install the Schemathesis that fuzz and gate run (a private virtual environment)
  users-api-kit --version

Docs: README.md, and /docs on a running mock.`

type Command = (args: string[]) => Promise<number | undefined>

/**
 * Each command resolves to its exit code, or to undefined while it keeps running (the mock). Loaded
 * on demand: the mock's cold start should not pay for the suite's and the fuzzer's modules.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  mock: async () => (await import('./mock-command.js')).runMockCommand,
  verify: async () => (await import('./verify-command.js')).runVerifyCommand,
  fuzz: async () => (await import('./fuzz-command.js')).runFuzzCommand,
  gate: async () => (await import('./gate-command.js')).runGateCommand,
  proxy: async () => (await import('./proxy-command.js')).runProxyCommand,
  'init-target': async () => (await import('./init-target-command.js')).runInitTargetCommand,
  'setup-fuzz': async () => (await import('./setup-fuzz-command.js')).runSetupFuzzCommand,
}

/**
 * No ANSI escapes where no terminal reads them (pipes, files, CI logs): NO_COLOR, which the mock's
 * logger, vitest (the suite's reporter) and Schemathesis all honour, before any of them is loaded.
 */
function turnColoursOffUnlessATerminal(): void {
  if (process.stdout.isTTY !== true || process.env['CI'] !== undefined) process.env['NO_COLOR'] ??= '1'
  if (process.env['NO_COLOR'] !== undefined) delete process.env['FORCE_COLOR']
}

/**
 * The commands that read a target's answers keep V8's young generation small: on a large machine V8 lets
 * it grow to 64 MiB in each thread (1 MiB: 325 → 290 MiB, for ~8 % more CPU than at 8 MiB, BENCHMARKS.md). Set before vitest starts its
 * workers, whose heaps take the flags when they are created. `--optimize-for-size`, set here too until
 * 2026-11-29, saved ~30 MiB (a healthy verify 250 → 220 MiB) for ~0.3 s of a 2.9 s run (BENCHMARKS.md).
 */
function keepHeapSmall(command: string | undefined): void {
  if (command !== 'verify' && command !== 'fuzz' && command !== 'gate') return
  setFlagsFromString('--max-semi-space-size=1')
}

/**
 * verify and gate keep the code Node compiles for them on disk (in the user's cache folder,
 * files/user-cache-folder.ts, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), as CLIs are
 * advised to: their main thread and each of the suite's workers compile vitest and the suite anew on every run,
 * ~150 ms of a 2.7 s run. Not Node's default, os.tmpdir(): on Linux a folder another local user could create
 * first and fill with code the kit would load. The workers take the cache from the environment. Not the mock: writing the
 * cache slows a first start (~10 % of a cold start, BENCHMARKS.md), and a mock is started once and left running.
 * A cache that cannot be written is silently not used.
 */
function cacheCompiledCode(command: string | undefined): void {
  if (command !== 'verify' && command !== 'gate') return
  if (process.env['NODE_DISABLE_COMPILE_CACHE']) return
  const own = userCacheFolder(process.env)
  const folder = process.env['NODE_COMPILE_CACHE'] || (own === undefined ? undefined : join(own, 'compile-cache'))
  if (folder === undefined) return
  try {
    // Looked up, not imported by name: on Node 20 the import itself would fail before the version check speaks.
    const { directory } = nodeModule.enableCompileCache(folder)
    if (directory !== undefined) process.env['NODE_COMPILE_CACHE'] = directory
  } catch {
    // A cache is a saving, never a reason to fail.
  }
}

async function main(argv: string[]): Promise<number | undefined> {
  cacheCompiledCode(argv[0])
  turnColoursOffUnlessATerminal()
  keepHeapSmall(argv[0])
  const [command, ...args] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE)
    return 0
  }
  if (command === '--version' || command === '-v') {
    console.log((await readPackageManifest()).version)
    return 0
  }
  const load = COMMANDS[command]
  if (!load) {
    const suggestion = didYouMean(command, Object.keys(COMMANDS))
    const hint = suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`
    console.error(`users-api-kit: unknown command "${command}".${hint}\n\n${USAGE}`)
    return 2
  }
  return (await load())(args)
}

const code = await main(process.argv.slice(2))
if (code !== undefined) process.exitCode = code
