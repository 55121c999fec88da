import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { performance } from 'node:perf_hooks'
import { toWireRequest, type ApiRequest } from './api-exchange.js'

/** One answered (or failed) request, with when it was started and answered, as this process saw it. */
export interface TimedAnswer<T = unknown> {
  request: ApiRequest
  /** Which connection sent it: the index of its list. */
  connection: number
  /** Absent when the connection failed; then `error` holds the code (ECONNRESET…). */
  status?: number
  headers: IncomingHttpHeaders
  text: string
  /** The parsed JSON body, when there is one. */
  body?: T
  error?: string
  /** performance.now() before the request was handed to the socket. */
  startedAt: number
  /** performance.now() once the whole response was read (or the request failed). */
  answeredAt: number
}

/**
 * Sends each list of requests on a connection of its own (one keep-alive socket each), all connections
 * at once, each request after the answer to the one before it on that connection. Never throws for a
 * status or a connection error: they are in the answers.
 *
 * @example
 * const answers = await sendFromConnections(mock.url, [[renameTo('A')], [renameTo('B'), remove()]])
 */
export async function sendFromConnections<T = unknown>(
  baseUrl: string,
  lists: ApiRequest[][],
): Promise<TimedAnswer<T>[]> {
  const answers: TimedAnswer<T>[] = []
  await Promise.all(
    lists.map(async (list, connection) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        for (const request of list) answers.push(await sendTimed<T>(baseUrl, request, { agent, connection }))
      } finally {
        agent.destroy()
      }
    }),
  )
  return answers
}

/** One request on the given agent (`false`: a connection of its own, closed after the answer). */
export function sendTimed<T = unknown>(
  baseUrl: string,
  request: ApiRequest,
  { agent, connection = 0 }: { agent: Agent | false; connection?: number },
): Promise<TimedAnswer<T>> {
  const { method, headers, payload } = toWireRequest(request)
  const startedAt = performance.now()
  return new Promise((resolve) => {
    const failed = (error: NodeJS.ErrnoException): void =>
      resolve({
        request,
        connection,
        headers: {},
        text: '',
        error: error.code ?? error.message,
        startedAt,
        answeredAt: performance.now(),
      })
    const outgoing = httpRequest(`${baseUrl}${request.url}`, { method, headers, agent }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('error', failed)
      response.on('end', () => {
        const isJson = /json/i.test(response.headers['content-type'] ?? '') && text !== ''
        resolve({
          request,
          connection,
          status: response.statusCode,
          headers: response.headers,
          text,
          ...(isJson ? { body: JSON.parse(text) as T } : {}),
          startedAt,
          answeredAt: performance.now(),
        })
      })
    })
    outgoing.on('error', failed)
    outgoing.end(payload)
  })
}
