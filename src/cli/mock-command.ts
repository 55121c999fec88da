import { createMockApp, serverUrl } from '../server/start-mock.js'
import { isLevelEnabled, loggerOptions } from '../server/request-log.js'
import { formatBanner } from './mock-banner.js'
import { isLoopbackName } from '../http/loopback-guard.js'
import { MOCK_USAGE, parseMockArgs, type MockArgs } from './parse-mock-args.js'
import { CONTROL_TOKEN_ENV } from './shared-options.js'
import { readCommandArgs } from './read-command-args.js'
import { carryOnWithoutOutput } from './output-errors.js'

/** `users-api-kit mock`: starts the mock, prints how to use it, stops cleanly on SIGINT/SIGTERM. */
/** Resolves to an exit code, or to undefined once the mock runs (it ends on a signal). */
export async function runMockCommand(args: string[]): Promise<number | undefined> {
  const options = readCommandArgs('mock', MOCK_USAGE, parseMockArgs, args)
  if (typeof options === 'number') return options
  carryOnWithoutOutput('mock')
  try {
    const { app, state, mock, loadedStateFile, listen } = await createMockApp({
      ...options,
      logger: loggerOptions({ level: options.logLevel, terminal: process.stdout.isTTY === true }),
    })
    // Fastify logs "Server listening at …" as it starts listening: on a pipe, a JSON line before the banner
    // its reader waits for. The banner comes first, then that line.
    const level = app.log.level
    if (isLevelEnabled(app.log, 'info')) app.log.level = 'warn'
    await listen({ port: options.port, host: options.host })
    app.log.level = level
    // Before the banner: whoever reads it as "ready" may send SIGTERM at once, and without a handler
    // that signal kills the process (no clean close, no exit code 0).
    closeOnSignals(app)
    console.log(
      formatBanner({
        url: serverUrl(app),
        options,
        current: {
          organizations: state.store.organizations().length,
          users: state.store.userCount,
          tokenHolders: state.store
            .tokenHolders()
            .map(({ token, user: { role, status } }) => ({ token, role, status })),
        },
        loadedStateFile,
        webhookSecret: mock.webhooks.secret,
      }),
    )
    app.log.info(`Server listening at ${serverUrl(app)}`)
    if (!isLoopbackName(options.host) && options.controlToken === undefined) {
      console.warn(
        `Warning: the mock is open to your network (--host ${options.host}), and so are its /__mock/ control routes: anyone who reaches it can list every token and replace the state. Protect them with --control-token T (or ${CONTROL_TOKEN_ENV}=T).`,
      )
    }
    if (!isLoopbackName(options.host) && options.cors === false) {
      console.warn(
        'CORS is off: the mock is open to your network, so web pages may not call it from other origins. Allow your frontend with --cors http://host:port.',
      )
    }
    return undefined
  } catch (error) {
    console.error(`users-api-kit mock: cannot start.\n${describeStartError(error, options)}`)
    return 2
  }
}

function describeStartError(error: unknown, options: MockArgs): string {
  const { code, message } = error as { code?: string; message?: string }
  if (code === 'EADDRINUSE')
    return `Port ${options.port} is in use. Stop what uses it, or pick another: --port ${options.port + 1} (or --port 0 for any free port).`
  if (code === 'EADDRNOTAVAIL')
    return `Cannot bind ${options.host}: this machine has no such address. Try --host 127.0.0.1.`
  return message ?? String(error)
}

/**
 * How long requests in flight may take to finish after a signal: `Prefer: delay` and `--latency` can
 * hold one for a minute, and `docker stop` sends SIGKILL after 10 s, before the state file's last write.
 */
const GRACE_MS = 5_000
/** The whole stop, under `docker stop`'s 10 s: what the connections leave of it goes to the log's last lines. */
const STOP_LIMIT_MS = 9_000

/** What a stop needs of the Fastify app: its close, and its server's connections. */
interface Closable {
  close(): Promise<unknown>
  server: { closeIdleConnections(): void; closeAllConnections(): void }
}

function closeOnSignals(app: Closable): void {
  let closing = false
  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing) process.exit(130) // A second Ctrl-C: stop waiting for open connections.
    closing = true
    const stopBy = Date.now() + STOP_LIMIT_MS
    console.log(`\n${signal}: stopping the mock.`)
    // Fastify's close refuses new connections, lets the requests in flight finish and ends the
    // keep-alive connections idle at that moment, once. A connection busy then stays open after its
    // answer for node's keepAliveTimeout (5 s) and holds the exit that long: end each one
    // as soon as it falls idle, and after the grace period end them all.
    const endIdleConnections = setInterval(() => app.server.closeIdleConnections(), 50)
    const endAllConnections = setTimeout(() => {
      console.warn(`Requests still running after ${GRACE_MS / 1000} s: their connections are closed.`)
      app.server.closeAllConnections()
    }, GRACE_MS)
    app.close().then(
      async () => {
        clearInterval(endIdleConnections)
        clearTimeout(endAllConnections)
        await stdoutDrained(stopBy)
        process.exit(0)
      },
      (error: unknown) => {
        console.error(`users-api-kit mock: the stop failed: ${(error as Error).message}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

/**
 * Request lines a pipe's reader has not taken yet wait in `process.stdout`, which `process.exit` drops: they
 * are written first, for as long as the reader takes, until `until` (a time in ms). Polled: `drain` comes only
 * after a write that filled the stream's buffer, not for a shorter queue.
 */
function stdoutDrained(until: number): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (process.stdout.writableLength === 0 || process.stdout.destroyed || Date.now() >= until) resolve()
      else setTimeout(check, 10)
    }
    check()
  })
}
