/**
 * `npm run lint`: the document's linting, the type check, ESLint, Prettier and the generated types' check,
 * two at a time (they are independent, and one at a time they left a core of two idle: ~28 s, now ~19 s of
 * npm test). Each one's output is printed whole once it ends, in the order they were started; the exit code
 * is 1 when any failed, naming which.
 *
 *   npx tsx scripts/lint.ts
 */
import { availableParallelism } from 'node:os'
import { execa } from 'execa'

const STEPS = ['lint:code:types', 'lint:code:eslint', 'lint:code:format', 'lint:spec', 'types:check']

async function main(): Promise<number> {
  const waiting = [...STEPS]
  const outputs = new Map<string, Promise<{ step: string; failed: boolean; all: string }>>()
  const run = async (step: string) => {
    const result = await execa('npm', ['run', '--silent', step], { all: true, reject: false })
    return { step, failed: result.exitCode !== 0, all: result.all ?? '' }
  }
  const lanes = Array.from({ length: Math.max(1, Math.min(2, availableParallelism())) }, async () => {
    for (let step = waiting.shift(); step !== undefined; step = waiting.shift()) {
      const outcome = run(step)
      outputs.set(step, outcome)
      await outcome
    }
  })
  await Promise.all(lanes)
  const failed: string[] = []
  for (const step of STEPS) {
    const outcome = await (outputs.get(step) as Promise<{ step: string; failed: boolean; all: string }>)
    console.log(`> npm run ${step}${outcome.failed ? ' (failed)' : ''}`)
    if (outcome.all !== '') console.log(outcome.all)
    if (outcome.failed) failed.push(step)
  }
  if (failed.length > 0) console.error(`npm run lint: ${failed.join(', ')} failed.`)
  return failed.length > 0 ? 1 : 0
}

process.exitCode = await main()
