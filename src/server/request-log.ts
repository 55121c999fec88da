import type { FastifyInstance, FastifyServerOptions } from 'fastify'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** The role each answered request was made as, when the engine authenticated it (for its log line). */
const ROLES = new WeakMap<object, string>()

export function rememberRole(request: object, role: string | undefined): void {
  if (role !== undefined) ROLES.set(request, role)
}

/**
 * The mock's logger: one line a request, JSON lines for machines, a short readable line at a terminal
 * (colours only there, and never under NO_COLOR). The Authorization header is never logged: the line
 * holds method, path, status, time and the caller's role, nothing else of the request.
 *
 * @example
 * Fastify({ logger: loggerOptions({ level: 'info', terminal: process.stdout.isTTY === true }) })
 */
export function loggerOptions({
  level,
  terminal,
}: {
  level: LogLevel
  terminal: boolean
}): FastifyServerOptions['logger'] {
  if (!terminal) return { level }
  return {
    level,
    transport: {
      target: 'pino-pretty',
      options: {
        singleLine: true,
        translateTime: 'HH:MM:ss',
        ignore: 'pid,hostname,reqId,method,url,statusCode,responseTime,role',
        colorize: process.env['NO_COLOR'] === undefined,
      },
    },
  }
}

/** Fastify's two lines a request (and their headers) replaced by one line, after the answer. */
export function logOneLineARequest(app: FastifyInstance): void {
  // Quiet or no logger: no hook at all, nothing to pay per request.
  const enabled = (level: string): boolean =>
    (app.log as unknown as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) === true
  if (!enabled('info')) return
  // At debug level, a line when a request begins too (a slow or held request shows before its answer).
  if (enabled('debug')) {
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({ method: request.method, url: request.url }, 'incoming request')
      done()
    })
  }
  app.addHook('onResponse', (request, reply, done) => {
    const role = ROLES.get(request)
    const responseTime = Math.round(reply.elapsedTime * 10) / 10
    request.log.info(
      { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime, role },
      `${request.method} ${request.url} ${reply.statusCode} ${responseTime} ms${role ? ` ${role}` : ''}`,
    )
    done()
  })
}
