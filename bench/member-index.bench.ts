/**
 * Micro-benchmark of the member index behind GET /api/users: 100,000 users in one organization.
 * Each case times what the store does per request: query, then `.slice(0, 20)` and `.length`
 * (mutations: replace a user by a changed copy, then the next query, which applies it). The users are the
 * mock's own generated ones (src/seed/generate-state.ts), with list-order ties added.
 * Run: npx tsx --expose-gc bench/member-index.bench.ts   (--expose-gc makes the memory figures exact)
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { MemberIndex, type MemberFilter, type MemberIndexOptions } from '../src/domain/member-index/member-index.js'
import type { User } from '../src/domain/user.js'
import { streamState } from '../src/seed/generate-state.js'

const USER_COUNT = 100_000
const ITERATIONS = 2_000
const ORGANIZATION_ID = 'org_aaaaaaaaaaaaaaaaaaaa'
/** Names to rename users to: another seed's. */
const RENAME_NAMES = generateUsers(2, 64).map((user) => user.name)
interface Timing {
  case: string
  'mean µs': number
  'p50 µs': number
  'p99 µs': number
  'max µs': number
  matches: number | string
}

function generateUsers(seed: number, count: number): User[] {
  const fixtures = { organizations: [{ id: ORGANIZATION_ID, name: 'Acme' }], users: [] }
  const start = Date.parse('2020-01-01T00:00:00.000Z')
  const users: User[] = []
  for (const { id, email, name, role, organizationId, status } of streamState({
    fixtures,
    seed,
    usersPerOrganization: count,
  }).users) {
    const index = users.length
    // Every tenth user shares the previous timestamp (bulk imports), so ids break ties.
    const createdAt = new Date(start + (index % 10 === 0 ? index - 1 : index) * 60_000).toISOString()
    users.push({ id, email, name, role, organizationId, status, createdAt, updatedAt: createdAt })
  }
  return users
}

/** The JS heap plus the typed arrays' storage, which lives outside it, once garbage is gone. */
async function measureMemoryMiB(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc
  // Array buffers are freed in the background after a collection: collect, wait, collect again.
  gc?.()
  await new Promise((resolve) => setTimeout(resolve, 200))
  gc?.()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return (heapUsed + arrayBuffers) / 2 ** 20
}

/** The process's peak RSS so far (VmHWM), where Linux reports it. */
function readPeakRssMiB(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))
    return match === null ? undefined : Number(match[1]) / 1024
  } catch {
    return undefined
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10
}

/** Times `run` ITERATIONS times after a warm-up; `run` returns what it found, for the table. */
function timeCase(name: string, run: (iteration: number) => number | string): Timing {
  for (let iteration = 0; iteration < 200; iteration++) run(iteration)
  const samples: number[] = []
  let matches: number | string = 0
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const begin = performance.now()
    matches = run(iteration)
    samples.push((performance.now() - begin) * 1000)
  }
  samples.sort((a, b) => a - b)
  const mean = samples.reduce((sum, sample) => sum + sample, 0) / samples.length
  const percentile = (share: number): number => round(samples[Math.floor(samples.length * share)]!)
  return {
    case: name,
    'mean µs': round(mean),
    'p50 µs': percentile(0.5),
    'p99 µs': percentile(0.99),
    'max µs': round(samples.at(-1)!),
    matches,
  }
}

/** What the store does for one page: the page itself and the total. */
function readPage(index: MemberIndex, filter: MemberFilter): number {
  const matches = index.query(filter)
  matches.slice(0, 20)
  return matches.length
}

async function buildIndex(
  users: readonly User[],
  options: MemberIndexOptions,
): Promise<{ index: MemberIndex; ms: number; memoryMiB: number }> {
  const memoryBefore = await measureMemoryMiB()
  const begin = performance.now()
  const index = new MemberIndex(options)
  for (const user of users) index.add(user)
  // Changes are applied at the next query: the first one builds the index.
  index.query({})
  const ms = performance.now() - begin
  return { index, ms, memoryMiB: (await measureMemoryMiB()) - memoryBefore }
}

/** The items in an order of their own, the same on every run (Fisher–Yates with a small seeded PRNG). */
function shuffle<Item>(items: readonly Item[]): Item[] {
  const shuffled = [...items]
  let state = 1
  for (let last = shuffled.length - 1; last > 0; last--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    const other = Math.floor((state / 2 ** 32) * (last + 1))
    ;[shuffled[last], shuffled[other]] = [shuffled[other]!, shuffled[last]!]
  }
  return shuffled
}

/** Puts a changed copy of the user at `position` in the index's and the list's place of the user. */
function replaceAt(index: MemberIndex, users: User[], position: number, change: (user: User) => User): void {
  const user = users[position]!
  const changed = change(user)
  index.replace(user, changed)
  users[position] = changed
}

function benchQueries(index: MemberIndex, users: User[], renameNames: readonly string[]): Timing[] {
  const threeLetterTerms = ['son', 'mar', 'ell', 'ber', 'ick', 'ott', 'ann', 'ley']
  const fiveLetterTerms = ['smith', 'marie', 'ellen', 'berge', 'chris', 'scott', 'annie', 'hayes']
  return [
    timeCase("search 'ab'", () => readPage(index, { search: 'ab' })),
    timeCase("search 'son' (same term)", () => readPage(index, { search: 'son' })),
    timeCase('search 3 letters (8 terms)', (i) => readPage(index, { search: threeLetterTerms[i % 8]! })),
    timeCase("search 'smith' (same term)", () => readPage(index, { search: 'smith' })),
    timeCase('search 5 letters (8 terms)', (i) => readPage(index, { search: fiveLetterTerms[i % 8]! })),
    timeCase("search 'e'", () => readPage(index, { search: 'e' })),
    timeCase("viewers + 'ab'", () => readPage(index, { role: 'CLIENT_VIEWER', search: 'ab' })),
    timeCase("owners + 'e'", () => readPage(index, { role: 'CLIENT_OWNER', search: 'e' })),
    timeCase("viewers + 'co'", () => readPage(index, { role: 'CLIENT_VIEWER', search: 'co' })),
    timeCase('role, no search', () => readPage(index, { role: 'CLIENT_ADMIN' })),
    timeCase('no filter', () => readPage(index, {})),
    timeCase("rename, then search 'ab'", (i) => {
      replaceAt(index, users, (i * 7919) % users.length, (user) => ({
        ...user,
        name: renameNames[i % renameNames.length]!,
      }))
      return readPage(index, { search: 'ab' })
    }),
    timeCase("role change, then search 'ab'", (i) => {
      replaceAt(index, users, (i * 7919) % users.length, (user) => ({
        ...user,
        role: user.role === 'CLIENT_ADMIN' ? 'CLIENT_VIEWER' : 'CLIENT_ADMIN',
      }))
      return readPage(index, { search: 'ab' })
    }),
    timeCase("status change, then search 'ab'", (i) => {
      replaceAt(index, users, (i * 7919) % users.length, (user) => ({
        ...user,
        status: user.status === 'ACTIVE' ? 'SUSPENDED' : 'ACTIVE',
      }))
      return readPage(index, { search: 'ab' })
    }),
    timeCase("delete + re-add, then search 'ab'", (i) => {
      const user = users[(i * 7919) % users.length]!
      index.remove(user)
      readPage(index, { search: 'ab' })
      index.add(user)
      return readPage(index, { search: 'ab' })
    }),
  ]
}

async function runConfiguration(label: string, options: MemberIndexOptions): Promise<void> {
  // Fresh users each time: the mutations of the previous run would turn renames into no-ops.
  const users = generateUsers(1, USER_COUNT)
  const { index, ms, memoryMiB } = await buildIndex(users, options)
  console.log(`\n## ${label}: ${JSON.stringify(options)}`)
  const peakRssMiB = readPeakRssMiB()
  console.log(
    `build ${round(ms)} ms, memory +${round(memoryMiB)} MiB (heap and typed arrays), rss ${round(process.memoryUsage().rss / 2 ** 20)} MiB` +
      (peakRssMiB === undefined ? '' : `, peak rss so far ${round(peakRssMiB)} MiB`),
  )
  console.table(benchQueries(index, users, RENAME_NAMES))
}

async function main(): Promise<void> {
  console.log(
    `${USER_COUNT} users, node ${process.version}${'gc' in globalThis ? '' : ' (run with --expose-gc for exact heap figures)'}`,
  )
  const configurations: Array<[string, MemberIndexOptions]> = [
    ['default: trigrams, memo of 16 results (repeated queries are memo hits)', {}],
    ['memo off: every query computed', { memoSize: 0 }],
    ['bigrams only, without memo', { maxGramLength: 2, memoSize: 0 }],
  ]
  for (const [label, options] of configurations) await runConfiguration(label, options)
  const shuffled = await buildIndex(shuffle(generateUsers(1, USER_COUNT)), {})
  console.log(`\nbuild from users in random order: ${round(shuffled.ms)} ms`)
}

await main()
