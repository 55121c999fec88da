import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'

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

/**
 * Fastify's request log lines, as people read them: at debug level a line when a request begins, at info
 * one line when it is answered (method, path, status, time, the caller's role), and no header at all.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: request.url }, 'incoming request')
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    // --quiet: nothing to build for a line that is not written.
    const log = request.log as FastifyRequest['log'] & { isLevelEnabled?: (level: string) => boolean }
    if (!error && log.isLevelEnabled?.('info') === false) return
    const role = ROLES.get(request)
    const responseTime = Math.round(reply.elapsedTime * 10) / 10
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime, role }
    const message = `${request.method} ${request.url} ${reply.statusCode} ${responseTime} ms${role ? ` ${role}` : ''}`
    if (error) request.log.error({ ...line, err: error }, message)
    else request.log.info(line, message)
  }
}
