import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { buildCliOnce, killRunningClis, startCli } from '../support/cli-mock-process.js'

// Issue 36: 20,000 distinct list URLs took the mock from 95 to 387 MiB, and it stayed there (here: 60,000
// took it from 84 to 337 MiB), while its answer cache held some 15 MB: each answer, kept until 1,000
// others came, lived long enough for V8 to move it to its old generation, which grew and kept the pages.
// An answer is now kept once asked a second time, and the kept ones are bounded by size.

/** What 60,000 distinct reads may add to the mock's RSS (the goal of issue 36). */
const MAX_GROWTH_MIB = 50

beforeAll(buildCliOnce, 120_000)

afterAll(killRunningClis)

/** The mock's resident memory, in MiB, from /proc. */
function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
}

/**
 * The `index`-th of 61,236 distinct list URLs that all find the 55 users of Acme (every email holds
 * "example"): a page of 73 to 100, and "example" with each letter as it is, upper-cased or
 * percent-encoded (3^7 = 2,187 spellings). 15 KB a page.
 */
function distinctListUrl(index: number): string {
  const spelling = [...'example']
    .map((letter, at) => {
      const choice = Math.floor((index % 2_187) / 3 ** at) % 3
      return choice === 0 ? letter : choice === 1 ? letter.toUpperCase() : `%${letter.charCodeAt(0).toString(16)}`
    })
    .join('')
  return `/api/users?limit=${73 + Math.floor(index / 2_187)}&search=${spelling}`
}

test(`60,000 distinct list URLs read once each: the mock's RSS grows by ${MAX_GROWTH_MIB} MiB at most`, async () => {
  const { url, cli } = await startCli(['--quiet'])
  const pid = cli.pid as number
  const agent = new Agent({ keepAlive: true, maxSockets: 8 })
  const read = (path: string) =>
    new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      const outgoing = request(
        `${url}${path}`,
        { agent, headers: { authorization: 'Bearer owner-token' } },
        (response) => {
          let bytes = 0
          response.on('data', (chunk: Buffer) => (bytes += chunk.byteLength))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }))
        },
      )
      outgoing.on('error', reject)
      outgoing.end()
    })
  try {
    expect((await read(distinctListUrl(0))).bytes).toBeGreaterThan(10_000)
    const resting = rssMiB(pid)
    let peak = resting
    const statuses = new Set<number>()
    for (let index = 1; index < 60_000; index += 64) {
      const batch = Array.from({ length: Math.min(64, 60_000 - index) }, (_, offset) =>
        read(distinctListUrl(index + offset)),
      )
      for (const { status } of await Promise.all(batch)) statuses.add(status)
      if (index % 4_096 === 1) peak = Math.max(peak, rssMiB(pid))
    }
    peak = Math.max(peak, rssMiB(pid))
    console.log(`60,000 distinct list URLs: RSS ${resting.toFixed(0)} → peak ${peak.toFixed(0)} MiB`)
    expect([...statuses]).toEqual([200])
    expect(peak - resting).toBeLessThanOrEqual(MAX_GROWTH_MIB)
  } finally {
    agent.destroy()
  }
}, 120_000)
