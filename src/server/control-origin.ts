import type { FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { isLoopbackAddress, isLoopbackHost } from '../http/loopback-guard.js'

/**
 * The guard of the control routes against web pages. Binding 127.0.0.1 keeps other machines out, not
 * the developer's browser: any page it opens could otherwise send `POST /__mock/reset` or
 * `PUT /__mock/state` (CORS hides answers, it does not stop requests), or read `/__mock/tokens` under
 * a DNS name rebound to 127.0.0.1. So a control route refuses a request
 * - from another origin (browsers always send `Origin` across origins) unless `--cors` lists it, and
 * - on a loopback connection, with a `Host` other than localhost or a loopback address (DNS rebinding).
 * curl, test runners and the contract suite send neither header and pass.
 */
export function createControlOriginGuard(
  cors: boolean | string[] | undefined,
): (request: FastifyRequest) => Promise<void> {
  const listed = new Set(Array.isArray(cors) ? cors : [])
  return async (request) => {
    // app.inject() has no socket address: nothing to guard.
    if (isLoopbackAddress(request.socket.localAddress) && !isLoopbackHost(request.host)) {
      throw new AppError(
        'FORBIDDEN',
        `The /__mock/ routes of a mock on a loopback address answer only to Host localhost or a loopback address, not ${request.host} (a protection against DNS rebinding).`,
      )
    }
    const origin = request.headers.origin
    if (origin === undefined || origin === `${request.protocol}://${request.host}` || listed.has(origin)) return
    throw new AppError(
      'FORBIDDEN',
      `The /__mock/ routes refuse requests from web pages of another origin (${origin}); list it with --cors to allow it.`,
    )
  }
}
