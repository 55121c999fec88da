/**
 * `npm run lint`: the document's linting, the type check, ESLint, Prettier and the generated types' check,
 * two at a time (they are independent, and one at a time they left a core of two idle: ~36 s, now ~24 s of
 * npm test). Each one's output is printed whole once all have ended, in this order; the exit code is 1 when
 * any failed, naming which.
 *
 *   npx tsx scripts/lint.ts
 */
import { execa } from 'execa'

const STEPS = ['lint:code:types', 'lint:code:eslint', 'lint:code:format', 'lint:spec', 'types:check']
const AT_ONCE = 2

const results = new Map<string, { failed: boolean; output: string }>()
const waiting = [...STEPS]
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    for (let step = waiting.shift(); step !== undefined; step = waiting.shift()) {
      const result = await execa('npm', ['run', '--silent', step], { all: true, reject: false })
      results.set(step, { failed: result.exitCode !== 0, output: result.all ?? '' })
    }
  }),
)
const failed = STEPS.filter((step) => results.get(step)?.failed)
for (const step of STEPS) {
  const { output } = results.get(step) ?? { output: '' }
  console.log(`> npm run ${step}${failed.includes(step) ? ' (failed)' : ''}`)
  if (output !== '') console.log(output)
}
if (failed.length > 0) {
  console.error(`npm run lint: ${failed.join(', ')} failed.`)
  process.exitCode = 1
}
