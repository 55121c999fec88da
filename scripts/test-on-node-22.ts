// `npm run test:node22`: the project's tests again on Node 22, the other runtime users run, after `npm test`
// (which built dist/ and ran every test on the Node on PATH, Node 24 in CI). Extra arguments go to vitest.
// Left out: the files whose subject is not the runtime but the outside tools and hostile servers they drive
// many times over (Schemathesis runs, the kill rate's verify runs, verify against hostile targets), which
// npm test ran; the install routes, which install and run the kit on Node 22 and 24 themselves; the CI
// example, which runs on the Node its workflow sets up; and the users-service example's, which run the
// service on Node 22 and 24 themselves.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
import { installMissingNodes, toolsNodeBin } from './install-node.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Test files npm test's run covers for both runtimes (see above). */
export const NOT_RUN_AGAIN_ON_NODE_22 = [
  'test/contract-suite/contract-suite-kill-rate.test.ts',
  'test/fuzz/fuzz-*.test.ts',
  'test/cli/gate.test.ts',
  'test/contract-suite/hostile-servers.test.ts',
  'test/contract-suite/answers-are-read-within-limits.test.ts',
  'test/contract-suite/tokens-stay-out-of-reports.test.ts',
  'test/cli/server-text-reaches-the-terminal-escaped.test.ts',
  'test/install/install-routes.test.ts',
  'test/install/ci-example-runs-as-written.test.ts',
  'test/install/users-service-*.test.ts',
]

const onNode22 = process.versions.node.startsWith('22.')
if (!onNode22) installMissingNodes([22])
const bin = onNode22 ? join(process.execPath, '..') : toolsNodeBin(22)
const excludes = NOT_RUN_AGAIN_ON_NODE_22.flatMap((pattern) => ['--exclude', pattern])
const run = await execa(
  join(bin, 'node'),
  [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...excludes, ...process.argv.slice(2)],
  // Node 22 first on PATH: the tests spawn `node` (the CLI, the kit's builds) as users do.
  { cwd: ROOT, stdio: 'inherit', reject: false, env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` } },
)
process.exitCode = run.exitCode ?? 1
