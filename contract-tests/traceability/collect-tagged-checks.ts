import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SUITE_SETTINGS, suiteSettingsFor } from '../../src/contract/run/suite-settings.js'

/** One check of the contract suite as vitest collects it: where it is, its full name, its tags. */
export interface TaggedCheck {
  /** Relative to the repository's root, with `/`: `contract-tests/authentication.contract.test.ts`. */
  file: string
  /** Its describe blocks' titles and its own, joined by ` > ` (vitest's `TestCase.fullName`). */
  title: string
  tags: string[]
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The suite's sources under vitest (verify runs the files built from them). */
const SUITE_CONFIG_PATH = fileURLToPath(new URL('../vitest.config.ts', import.meta.url))

/**
 * A target that is never contacted: collecting runs each file's top level (support/suite.ts reads its
 * target then) and its describe blocks, never a check.
 */
const COLLECT_ONLY_TARGET = {
  baseUrl: 'http://127.0.0.1:9',
  actors: Object.fromEntries(['owner', 'admin', 'viewer', 'bot', 'outsider'].map((name) => [name, { token: name }])),
  disposable: [],
}

/**
 * Every check of the contract suite with its tags, collected by vitest itself (titles are built in
 * loops, so only collecting them gives their real names), in file order, then in the order of each file.
 */
export async function collectTaggedChecks(): Promise<TaggedCheck[]> {
  const { createVitest } = await import('vitest/node')
  const settings = suiteSettingsFor(COLLECT_ONLY_TARGET)
  const vitest = await createVitest('test', {
    config: SUITE_CONFIG_PATH,
    watch: false,
    reporters: [],
    maxWorkers: 1,
    provide: { [SUITE_SETTINGS]: settings },
  })
  try {
    // Run each file's top level: vitest 5 parses files statically by default, which misses the checks loops build.
    const { testModules } = await vitest.collect(undefined, { staticParse: false })
    const errors = testModules.flatMap((module) =>
      module.errors().map((error) => `${module.moduleId}: ${error.message}`),
    )
    if (errors.length > 0) throw new Error(`The contract suite could not be collected:\n${errors.join('\n')}`)
    return testModules
      .map((module) => ({ module, file: relative(ROOT, module.moduleId).split('\\').join('/') }))
      .sort((a, b) => a.file.localeCompare(b.file))
      .flatMap(({ module, file }) =>
        [...module.children.allTests()].map((test) => ({ file, title: test.fullName, tags: [...test.tags] })),
      )
  } finally {
    await vitest.close()
  }
}
