import type { FastifyInstance, FastifyRequest } from 'fastify'
import { unsupportedMediaType } from './to-app-error.js'

/** CONTRACT §5: bodies over 16 KiB are a 413. */
export const BODY_LIMIT = 16 * 1024

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads a JSON body; every other route reads and ignores bodies. */
    jsonBody?: boolean
  }
}

/**
 * One parser for every content type, so that the order of CONTRACT §3 holds whatever is sent: the
 * size (413) is checked while reading, before the type (415, in `assertJsonBody`), before the body
 * is parsed and validated (400). Routes that take no body read and ignore it.
 */
export function registerBodyParsing(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  // Fastify answers a Content-Type it cannot parse (`json`, an empty one) with a 415 of its own before
  // any parser runs, so before the size: a DELETE, which takes no body, answered 415, and a body over
  // the limit 415 instead of 413. Only application/json is ever parsed, so any other type is as if
  // absent: the body is still read against the limit, and assertJsonBody refuses it (415).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.headers['content-type'] !== undefined && !isJson(request)) delete request.headers['content-type']
    done(null, payload)
  })
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    if (request.routeOptions.config.jsonBody !== true) return done(null, undefined)
    if (!isJson(request)) return done(null, undefined)
    parseJson(request, body as string, done)
  })
}

/** A preValidation hook for routes with a JSON body: 415 unless the body is sent as JSON. */
export async function assertJsonBody(request: FastifyRequest): Promise<void> {
  if (!isJson(request)) throw unsupportedMediaType()
}

/** `application/json`, with any parameters (`charset=utf-8`); not `application/merge-patch+json`. */
function isJson(request: FastifyRequest): boolean {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
  return mediaType === 'application/json'
}
