import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildCliOnce, killRunningClis, MAIN, startCli, type StartedCli } from '../support/cli-mock-process.js'

// verify's webhook receiver listens on loopback, where anything on the machine reaches it. Forged
// deliveries (1 MB each: 824 of them took it to 1.9 GiB; JSON nested deep: 4.4 GiB) made four webhook
// checks fail against a healthy mock. Now a delivery is bounded in size, depth, values and rate, and a
// forged one fails the check that counts them, and no other.

/** Writes the node process's peak RSS to the file named by PEAK_RSS_FILE when it exits. */
const REPORT_PEAK_RSS = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(process.env.PEAK_RSS_FILE, String(process.resourceUsage().maxRSS)))",
)}`
/** The hostile run may cost this much more than a healthy one (issue 20's goal). */
const HOSTILE_EXTRA_MIB = 50

let directory: string
let mock: StartedCli

beforeAll(async () => {
  await buildCliOnce()
  directory = await mkdtemp(join(tmpdir(), 'receiver-forgery-'))
  mock = await startCli(['--quiet'])
}, 120_000)

afterAll(async () => {
  killRunningClis()
  await rm(directory, { recursive: true, force: true })
})

interface Run {
  exitCode: number
  all: string
  peakMib: number
}

/** verify's webhook checks against the mock, with its JSON report and its peak RSS. */
async function verifyWebhooks(name: string): Promise<Run> {
  const result = await execa(
    'node',
    ['--import', REPORT_PEAK_RSS, MAIN, 'verify', '--base-url', mock.url, '--grep', 'webhooks', '--no-strict'],
    {
      reject: false,
      all: true,
      env: { NO_COLOR: '1', PEAK_RSS_FILE: join(directory, `${name}.rss`) },
      timeout: 120_000,
    },
  )
  return {
    exitCode: result.exitCode ?? -1,
    all: result.all ?? '',
    peakMib: Number(await readFile(join(directory, `${name}.rss`), 'utf8')) / 1024,
  }
}

/** Forged deliveries, 8 at a time, to every endpoint the mock lists, until `stop()`: how many were sent. */
function forge(): { stop(): Promise<number> } {
  const bodies = [
    Buffer.alloc(1024 * 1024, 'x'),
    Buffer.from(`${'['.repeat(30_000)}${']'.repeat(30_000)}`),
    Buffer.from(JSON.stringify({ type: 'user.updated', data: { user: { id: 'usr_forged', name: 'Forged' } } })),
  ]
  const agent = new Agent({ keepAlive: true, maxSockets: 8 })
  let running = true
  let sent = 0
  const send = (url: string, body: Buffer) =>
    new Promise<void>((resolve) => {
      const outgoing = request(url, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'webhook-id': `msg_forged${sent}`,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,Zm9yZ2VkIHNpZ25hdHVyZSBvZiBub2JvZHk=',
        },
      })
      outgoing.on('response', (response) => {
        response.resume()
        response.on('end', resolve)
      })
      outgoing.on('error', () => resolve())
      outgoing.end(body)
    })
  const loop = (async () => {
    while (running && sent < 20_000) {
      const listed = (await (await fetch(`${mock.url}/__mock/webhooks`)).json()) as { data: Array<{ url: string }> }
      if (listed.data.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        continue
      }
      await Promise.all(
        Array.from({ length: 8 }, (_, index) => {
          sent += 1
          const endpoint = listed.data[index % listed.data.length]?.url ?? ''
          return send(endpoint, bodies[sent % bodies.length] as Buffer)
        }),
      )
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      agent.destroy()
      return sent
    },
  }
}

describe("verify's webhook receiver, flooded with forged deliveries", () => {
  test(`fails the forgery check alone, within ${HOSTILE_EXTRA_MIB} MiB of a run nobody forged`, async () => {
    const healthy = await verifyWebhooks('healthy')
    expect(healthy.exitCode, healthy.all.slice(-3000)).toBe(0)

    const forger = forge()
    const attacked = await verifyWebhooks('attacked')
    const sent = await forger.stop()
    console.log(
      `webhook checks: ${Math.round(healthy.peakMib)} MiB alone, ${Math.round(attacked.peakMib)} MiB with ${sent} forged deliveries`,
    )
    expect(sent).toBeGreaterThan(100)
    expect(attacked.exitCode, attacked.all.slice(-3000)).toBe(1)
    // One check failed: the one that counts forged deliveries, and it counted them.
    expect(attacked.all).toMatch(/users-api-kit verify: \d+ checks? passed, 1 failed/)
    expect(attacked.all).toMatch(
      /Received: \d+ deliveries at http:\/\/127\.0\.0\.1:\d+\/ whose signature does not verify/,
    )
    expect(attacked.peakMib).toBeLessThan(healthy.peakMib + HOSTILE_EXTRA_MIB)
  }, 240_000)
})
