import { execa } from 'execa'
import { beforeAll, describe, expect, test } from 'vitest'
import { buildCliOnce, ROOT } from '../support/cli-mock-process.js'
import { findNodeBin, type NodeMajor } from '../support/kit-install.js'

// The kit is ECMAScript modules only. require() of it, from CommonJS, gets one line saying so and what
// to write instead (package.json's `require` condition), on Node 22 and 24 alike: Node 22.12+ can
// require() some ES modules, but not every one (users-api-kit/msw waits at its top level), and jest's
// loader none; before, Node said `No "exports" main defined`.

const ENTRIES = ['users-api-kit', 'users-api-kit/fetch', 'users-api-kit/msw']

beforeAll(buildCliOnce, 120_000)

for (const major of [24, 22] as NodeMajor[]) {
  const bin = findNodeBin(major)
  describe.skipIf(bin === undefined)(`on Node ${major}${bin ? '' : ' (skipped: no such Node here)'}`, () => {
    test.each(ENTRIES)('require(%s) throws one line: an ES module, import it', async (entry) => {
      const run = await execa(
        `${bin}/node`,
        ['-e', `try { require('${entry}') } catch (error) { console.log(error.message) }`],
        { cwd: ROOT, reject: false },
      )
      expect(run.stderr).toBe('')
      expect(run.stdout.split('\n')).toHaveLength(1)
      expect(run.stdout).toMatch(/^users-api-kit is an ES module, which require\(\) does not load: /)
      expect(run.stdout).toContain("import { startMock } from 'users-api-kit'")
      expect(run.stdout).toContain("await import('users-api-kit')")
    })

    test('import() from CommonJS loads it', async () => {
      const run = await execa(
        `${bin}/node`,
        ['-e', `import('users-api-kit').then((kit) => console.log(typeof kit.startMock))`],
        { cwd: ROOT, reject: false },
      )
      expect(run.stdout, run.stderr).toBe('function')
    })
  })
}
