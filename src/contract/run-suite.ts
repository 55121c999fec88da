import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Vitest } from 'vitest/node'
import type { SuiteLayer } from './response-schemas.js'
import { SUITE_ENV } from './suite-env.js'
import type { Target } from './target.js'

export const SUITE_CONFIG_PATH = fileURLToPath(new URL('../../contract-tests/vitest.config.ts', import.meta.url))

export interface SuiteRunOptions {
  target: Target
  spec?: string
  layer: SuiteLayer
  readOnly: boolean
  junit?: string
  json?: string
  grep?: string
  bail: boolean
  timeoutMs: number
}

export interface SuiteOutcome {
  passed: number
  failed: number
  skipped: number
  /** Why checks were skipped, with how many each reason skipped. */
  skipReasons: Map<string, number>
  /** The failed checks' full names. */
  failures: string[]
}

/** Runs the contract suite (contract-tests/) against one target through vitest's Node API. */
export async function runSuite(options: SuiteRunOptions): Promise<SuiteOutcome> {
  const directory = await mkdtemp(join(tmpdir(), 'users-api-kit-verify-'))
  const targetFile = join(directory, 'target.json')
  await writeFile(targetFile, JSON.stringify(options.target))
  // Workers inherit the environment: that is how the suite learns its target and settings.
  process.env[SUITE_ENV.target] = targetFile
  process.env[SUITE_ENV.layer] = options.layer
  process.env[SUITE_ENV.readOnly] = options.readOnly ? '1' : ''
  process.env[SUITE_ENV.timeoutMs] = String(options.timeoutMs)
  if (options.spec) process.env[SUITE_ENV.spec] = options.spec

  const { startVitest } = await import('vitest/node')
  const reporters: Array<string | [string, Record<string, unknown>]> = ['default']
  // vitest resolves report paths against the suite's root (contract-tests/): the user means their cwd.
  if (options.junit)
    reporters.push(['junit', { outputFile: resolve(options.junit), suiteName: 'users-api-kit verify' }])
  if (options.json) reporters.push(['json', { outputFile: resolve(options.json) }])
  const namePatterns = [options.layer === 'core' ? '\\[core\\]' : '', options.grep ?? ''].filter(Boolean)
  const vitest = await startVitest('test', [], {
    config: SUITE_CONFIG_PATH,
    run: true,
    watch: false,
    reporters,
    ...(namePatterns.length > 0
      ? { testNamePattern: namePatterns.map((pattern) => `(?=.*(?:${pattern}))`).join('') }
      : {}),
    ...(options.bail ? { bail: 1 } : {}),
    // A check sends a few requests in a row, each allowed the whole --timeout (the client stops sending
    // after 3 timeouts in a row): the request's timeout, which says what happened, must come first.
    ...testTimeouts(options.timeoutMs),
  })
  const outcome = summarize(vitest.state.getTestModules())
  await vitest.close()
  return outcome
}

/** vitest's own limits per check and hook (contract-tests/vitest.config.ts: 30 s), raised for a long --timeout. */
function testTimeouts(timeoutMs: number): { testTimeout?: number; hookTimeout?: number } {
  const needed = 4 * timeoutMs + 5_000
  return needed > 30_000 ? { testTimeout: needed, hookTimeout: needed } : {}
}

type TestModules = ReturnType<Vitest['state']['getTestModules']>

function summarize(modules: TestModules): SuiteOutcome {
  const outcome: SuiteOutcome = { passed: 0, failed: 0, skipped: 0, skipReasons: new Map(), failures: [] }
  for (const module of modules) {
    if (module.state() === 'failed' && [...module.children.allTests()].length === 0) {
      outcome.failed += 1
      outcome.failures.push(`${module.moduleId} (could not run)`)
    }
    for (const test of module.children.allTests()) {
      const result = test.result()
      if (result.state === 'passed') outcome.passed += 1
      else if (result.state === 'failed') {
        outcome.failed += 1
        outcome.failures.push(test.fullName)
      } else if (result.state === 'skipped') {
        outcome.skipped += 1
        const reason = result.note ?? (test.options.mode === 'skip' ? 'not selected (--only core, --grep)' : 'not run')
        outcome.skipReasons.set(reason, (outcome.skipReasons.get(reason) ?? 0) + 1)
      }
    }
  }
  return outcome
}
