import { Agent } from 'node:http'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MAX_ENDPOINTS } from '../../src/webhooks/webhook-endpoints.js'
import { buildCliOnce, killRunningClis, startCli } from '../support/cli-mock-process.js'
import { renameOnAgent } from '../support/kept-alive-patch.js'

// docs/mock.md, "Events": delivery never delays the API's answers. With 100 endpoints and a fast receiver
// a PATCH took p50 104 ms against 6.7 ms without any: every event was handed to every endpoint in one go.

/** A receiver in a process of its own (its work must not slow this test's client): 204 at once. */
const RECEIVER = `
const server = require('node:http').createServer((request, response) => {
  request.resume()
  request.on('end', () => response.writeHead(204).end())
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
`

let receiver: ReturnType<typeof execa>
let receiverUrl: string

beforeAll(async () => {
  await buildCliOnce()
  // Killed in afterAll: its end is no failure (reject: false), else an unhandled rejection.
  receiver = execa('node', ['-e', RECEIVER], { reject: false })
  receiverUrl = await new Promise<string>((resolve) =>
    receiver.stdout?.once('data', (chunk: Buffer) => resolve(`http://127.0.0.1:${chunk.toString().trim()}`)),
  )
}, 120_000)

afterAll(() => {
  receiver.kill()
  killRunningClis()
})

/** The median time of `count` PATCHes sent one after another on a kept-alive connection. */
async function medianPatchMs(url: string, id: string, count: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const times: number[] = []
  for (let index = 0; index < count; index += 1) {
    const started = performance.now()
    const status = await renameOnAgent(url, agent, id, `Name ${index}`)
    expect(status).toBe(200)
    times.push(performance.now() - started)
  }
  agent.destroy()
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] as number
}

describe('webhook fan-out', () => {
  test(`with ${MAX_ENDPOINTS} endpoints subscribed, a PATCH is answered about as fast as with none`, async () => {
    const { url } = await startCli(['--quiet'])
    const target = (await (await fetch(`${url}/__mock/target?disposable=1`, { method: 'POST' })).json()) as {
      disposable: Array<{ id: string }>
    }
    const id = target.disposable[0]?.id ?? ''
    await medianPatchMs(url, id, 50)
    const alone = await medianPatchMs(url, id, 200)
    for (let index = 0; index < MAX_ENDPOINTS; index += 1) {
      const response = await fetch(`${url}/__mock/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${receiverUrl}/hooks/${index}` }),
      })
      expect(response.status).toBe(201)
    }
    const fannedOut = await medianPatchMs(url, id, 200)
    console.log(`PATCH p50: ${alone.toFixed(1)} ms alone, ${fannedOut.toFixed(1)} ms with ${MAX_ENDPOINTS} endpoints`)
    expect(fannedOut).toBeLessThan(Math.max(3 * alone, alone + 10))
  }, 120_000)
})
