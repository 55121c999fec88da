import type { ServerResponse } from 'node:http'

/**
 * How far a reader of a live stream may fall behind the updates, in bytes queued for it: then it is
 * closed, so that a tab or a script that does not read costs bounded memory (with 1 MiB, 400 readers of
 * the mock's events that never read took the mock to 1.39 GiB). What the stream replays as it opens is
 * bounded by what the server keeps, and counted apart.
 */
export const STREAM_BACKLOG_LIMIT = 256 * 1024
/** A comment line this often keeps proxies and browsers from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000

/** One Server-Sent Events message: an event's name, its data as JSON, and its id if it has one. */
export function sseMessage(event: string, data: unknown, id?: string): string {
  return `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`
}

export interface EventStreamOptions {
  /** Headers of the server's own to send too (CORS set by a hook, say). */
  headers?: Record<string, string>
  /** What the reader gets at once: what the server kept so far, as SSE messages. */
  replay: string
}

/** A live stream as the server writes to it. */
export interface EventStream {
  /** Queues SSE text for the reader; a reader STREAM_BACKLOG_LIMIT behind is dropped instead. */
  write(text: string): void
  /** Calls `listener` once the reader went, or the stream was ended. */
  onClose(listener: () => void): void
}

/**
 * The live streams of a server (the events page's, the proxy page's): each opens with a replay, then
 * carries what the server writes, with a heartbeat while quiet, until the reader goes or `endAll()`.
 *
 * @example
 * const streams = new EventStreams()
 * const stream = streams.open(response, { replay: sseMessage('counts', counts) })
 * stream.write(sseMessage('finding', entry))
 */
export class EventStreams {
  private readonly responses = new Set<ServerResponse>()

  /** Streams open now. */
  get size(): number {
    return this.responses.size
  }

  open(response: ServerResponse, options: EventStreamOptions): EventStream {
    response.writeHead(200, {
      ...options.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    })
    // At once and in one piece, so that the headers go out now (a browser's EventSource opens on them),
    // with how soon to come back after a restart; the replay's bytes do not count as falling behind.
    const opening = `retry: 2000\n\n${options.replay}`
    const limit = STREAM_BACKLOG_LIMIT + Buffer.byteLength(opening)
    response.write(opening)
    const write = (text: string): void => {
      if (response.writableLength > limit) response.destroy()
      else response.write(text)
    }
    const heartbeat = setInterval(() => write(': still here\n\n'), HEARTBEAT_MS)
    this.responses.add(response)
    response.on('close', () => {
      clearInterval(heartbeat)
      this.responses.delete(response)
    })
    return { write, onClose: (listener) => response.once('close', listener) }
  }

  /** Ends every open stream: the server is stopping. */
  endAll(): void {
    for (const response of this.responses) response.end()
  }
}
