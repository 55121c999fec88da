import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import type { AnsweredRequest } from './engine-listener.js'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/**
 * The mock's logger: one line a request, JSON lines for machines, a short readable line at a terminal
 * (colours only there, and never under NO_COLOR). The Authorization header is never logged: the line
 * holds method, path, status, time and the caller's role, nothing else of the request.
 *
 * JSON lines go through `process.stdout`: Node writes a file (`> mock.log`, /dev/null) synchronously, a line
 * one cheap system call, where pino's own destination hands each write to libuv's thread pool (about a fifth
 * of the requests a second; BENCHMARKS.md); to a pipe it queues what a slow or stopped reader has not taken
 * (the mock never waits for it) and writes it out before the mock exits. Pino's destination could lose a line when
 * a pipe filled up.
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
  if (!terminal) return { level, stream: process.stdout }
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
 * The line of a request the engine answered (engine-listener.ts), as Fastify's own routes log theirs:
 * method, path, status, time and the caller's role, no header at all; written straight to the server's
 * logger, with no logger object a request.
 */
export function logAnswered(
  log: FastifyBaseLogger,
  { method, url, status, milliseconds, role }: AnsweredRequest,
): void {
  // --quiet: nothing to build for a line that is not written.
  if (!isLevelEnabled(log, 'info')) return
  const responseTime = Math.round(milliseconds * 10) / 10
  const line = { method, url, statusCode: status, responseTime, ...(role === undefined ? {} : { role }) }
  log.info(line, `${method} ${url} ${status} ${responseTime} ms${role ? ` ${role}` : ''}`)
}

/** Whether the logger writes lines of this level: Fastify's logger when logging is off has no levels. */
export function isLevelEnabled(log: FastifyBaseLogger, level: LogLevel): boolean {
  const pino = log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }
  return pino.isLevelEnabled?.(level) ?? false
}

/**
 * Fastify's request log lines for the mock's own routes, as people read them: at debug level a line when
 * a request begins, at info one line when it is answered (method, path, status, time), and no header.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: request.url }, 'incoming request')
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    // --quiet: nothing to build for a line that is not written.
    const log = request.log as FastifyRequest['log'] & { isLevelEnabled?: (level: string) => boolean }
    if (!error && log.isLevelEnabled?.('info') === false) return
    const responseTime = Math.round(reply.elapsedTime * 10) / 10
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime }
    const message = `${request.method} ${request.url} ${reply.statusCode} ${responseTime} ms`
    if (error) request.log.error({ ...line, err: error }, message)
    else request.log.info(line, message)
  }
}
