import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A fetch handler on a real port (127.0.0.1, free): what dials a URL, like the contract suite, can then reach it. */
export async function serveFetchHandler(
  handler: (request: Request) => Promise<Response>,
): Promise<{ url: string; close: () => Promise<void> }> {
  let origin = ''
  const server = createServer((incoming, outgoing) => {
    answer(handler, origin, incoming, outgoing).catch((error: unknown) => {
      // Nothing of the adapter may hide a failure as a status the handler never chose.
      console.error('serveFetchHandler: the handler or the adapter failed', error)
      if (!outgoing.headersSent) outgoing.statusCode = 500
      outgoing.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

async function answer(
  handler: (request: Request) => Promise<Response>,
  origin: string,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const method = incoming.method ?? 'GET'
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one)
  }
  // Read whole, whatever its size: the handler, not the adapter, decides what a body too large is.
  const chunks: Buffer[] = []
  for await (const chunk of incoming as AsyncIterable<Buffer>) chunks.push(chunk)
  const bytes = Buffer.concat(chunks)
  // Concatenated, not resolved against the origin: a target such as `//api/users` stays a path.
  const url = incoming.url?.startsWith('/') ? `${origin}${incoming.url}` : (incoming.url ?? origin)
  const hasBody = method !== 'GET' && method !== 'HEAD' && bytes.length > 0
  const response = await handler(new Request(url, { method, headers, ...(hasBody ? { body: bytes } : {}) }))

  outgoing.statusCode = response.status
  const setCookies = response.headers.getSetCookie()
  if (setCookies.length > 0) outgoing.setHeader('set-cookie', setCookies)
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') outgoing.setHeader(name, value)
  })
  outgoing.end(Buffer.from(await response.arrayBuffer()))
}
