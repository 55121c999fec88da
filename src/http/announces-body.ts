import type { IncomingMessage } from 'node:http'

/** Whether the request announces a body: most (GETs) do not, and nothing is waited for. */
export function announcesBody(request: IncomingMessage): boolean {
  const { 'content-length': length, 'transfer-encoding': encoding } = request.headers
  return encoding !== undefined || (length !== undefined && length !== '0')
}
