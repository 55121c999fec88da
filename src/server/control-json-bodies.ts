import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Readable } from 'node:stream'
import { AppError } from '../errors.js'
import { STATE_LIMITS } from '../mock-instance/state-limits.js'
import { BODY_LIMIT } from '../spec/contract-limits.js'
import { JsonBodyScanner, type JsonBodyLimits, type ScannedJson } from './json-body-scanner.js'

/**
 * A body of `PUT /__mock/state`: a state of 100,000 users is about 30 MB of JSON (40 MB indented), and
 * this is twice that. Values: what the largest state holds (a user is 19 values, an organization 5), with
 * room for a document of one's own whose users have more fields. Each user or organization at most
 * 64 KiB (an id is at most 4,096 characters).
 */
export const STATE_BODY_LIMITS: JsonBodyLimits = {
  bytes: 64 * 1024 * 1024,
  depth: 16,
  values: STATE_LIMITS.users * 32 + STATE_LIMITS.organizations * 8,
  elements: { count: STATE_LIMITS.users + STATE_LIMITS.organizations, bytes: 64 * 1024 },
  said: `PUT /__mock/state takes at most 64 MiB, ${STATE_LIMITS.organizations} organizations and ${STATE_LIMITS.users} users`,
}

/** Every other control route's body (a webhook subscription is a few hundred bytes): the users API's cap. */
export const SMALL_BODY_LIMITS: JsonBodyLimits = {
  bytes: BODY_LIMIT,
  depth: 16,
  values: 1_000,
  said: 'the control routes but PUT /__mock/state take at most 16 KiB and 1,000 JSON values',
}

/**
 * The limits of a control route's body, by its method and request target: one answer for the parser
 * and for `Expect: 100-continue` (build-app.ts), which must agree on which bodies to ask for.
 */
export function controlBodyLimits(method: string | undefined, url: string | undefined): JsonBodyLimits {
  const path = (url ?? '').split('?')[0]
  return method === 'PUT' && path === '/__mock/state' ? STATE_BODY_LIMITS : SMALL_BODY_LIMITS
}

/**
 * The control routes' JSON parser: each body is scanned as it arrives, within its route's limits
 * (`limitsOf`), and refused at the first byte past one; nothing is parsed before the whole body passed.
 * A small body is then parsed at once; a body whose limits find elements (a state) is handed over
 * scanned, for its route to parse a slice at a time (parse-scanned-json.ts).
 */
export function registerControlJsonParser(
  app: FastifyInstance,
  limitsOf: (request: FastifyRequest) => JsonBodyLimits,
): void {
  app.addContentTypeParser('application/json', (request, payload, done) => {
    const limits = limitsOf(request)
    scanBody(payload, request.headers['content-length'], limits).then((scanned) => {
      if (limits.elements !== undefined) return done(null, scanned)
      try {
        done(null, JSON.parse(scanned.bytes.toString('utf8')) as unknown)
      } catch (error) {
        done(error as Error, undefined)
      }
    }, done)
  })
}

/** The body, scanned within `limits`; refused before it is read when Content-Length says it is over. */
function scanBody(payload: Readable, contentLength: string | undefined, limits: JsonBodyLimits): Promise<ScannedJson> {
  if (Number(contentLength) > limits.bytes) {
    return Promise.reject(new AppError('PAYLOAD_TOO_LARGE', `The body is over ${limits.bytes} bytes: ${limits.said}.`))
  }
  const declared = Number(contentLength)
  const scanner = new JsonBodyScanner(limits, Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined)
  return new Promise((resolve, reject) => {
    // The request outlives its body on a kept-alive connection: no listener keeps the scanner, nor its bytes.
    const detach = (): void => {
      payload.off('data', onData)
      payload.off('end', onEnd)
      payload.off('error', stop)
    }
    const stop = (error: unknown): void => {
      detach()
      // The rest is not scanned: node reads and drops it once the 413 is sent (problem-replies.ts).
      payload.pause()
      reject(error)
    }
    const onData = (chunk: Buffer): void => {
      try {
        scanner.write(chunk)
      } catch (error) {
        stop(error)
      }
    }
    const onEnd = (): void => {
      detach()
      resolve(scanner.end())
    }
    payload.on('data', onData)
    payload.once('end', onEnd)
    payload.once('error', stop)
  })
}
