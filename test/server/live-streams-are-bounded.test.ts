import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { EventStreams, sseMessage, STREAM_BACKLOG_LIMIT, type EventStream } from '../../src/http/event-stream.js'

// The live pages' streams (the mock's events, the proxy's findings): what they replay as they open reaches
// a reader however large the server kept it, and a reader that does not read is dropped, not fed forever.

let server: Server | undefined

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** A server whose one route opens a live stream with `replay` and hands it to `opened`. */
async function serveStream(replay: string, opened: (stream: EventStream, response: ServerResponse) => void) {
  const streams = new EventStreams()
  server = createServer((_request, response) => opened(streams.open(response, { replay }), response))
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

function connect(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, resolve).once('error', reject))
}

describe('live streams', () => {
  test('a replay of 2 MiB, and what is written at once after it, reach a reader that reads a moment later', async () => {
    // As the proxy's page opening on 200 findings with their exchanges: more than the backlog limit at once.
    const finding = sseMessage('finding', { report: 'x'.repeat(10_000) })
    const replay = finding.repeat(Math.ceil((2 * 1024 * 1024) / finding.length))
    const url = await serveStream(replay, (stream, response) => {
      stream.write(sseMessage('counts', { findings: 'all' }))
      response.end()
    })
    const answer = await connect(url)
    answer.pause()
    await new Promise((resolve) => setTimeout(resolve, 200))
    let text = ''
    answer.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
    answer.resume()
    await new Promise((resolve) => answer.once('end', resolve))
    expect(text.length).toBeGreaterThan(replay.length)
    expect(text.endsWith(sseMessage('counts', { findings: 'all' }))).toBe(true)
  })

  test('a reader that never reads is dropped once the writes fall the backlog limit behind', async () => {
    let written = 0
    let droppedAfter: (bytes: number) => void = () => undefined
    const dropped = new Promise<number>((resolve) => (droppedAfter = resolve))
    const message = sseMessage('finding', { report: 'x'.repeat(4_000) })
    const url = await serveStream(sseMessage('counts', {}), (stream, response) => {
      response.once('close', () => droppedAfter(written))
      // Written as updates come, a turn at a time, until the stream is closed (or 256 MiB, far past any bound).
      const more = (): void => {
        if (response.destroyed) return
        if (written > 256 * 1024 * 1024) return droppedAfter(written)
        for (let index = 0; index < 64; index++) stream.write(message)
        written += 64 * message.length
        setImmediate(more)
      }
      more()
    })
    const answer = await connect(url)
    answer.pause()
    const bytes = await dropped
    // The kernel's socket buffers take their part before anything queues in the server.
    expect(bytes).toBeGreaterThan(STREAM_BACKLOG_LIMIT)
    expect(bytes).toBeLessThan(64 * 1024 * 1024)
  })
})
