import { parseArgs } from 'node:util'
import { isLoopbackName } from '../http/loopback-guard.js'
import { LOG_LEVELS, type LogLevel } from '../server/request-log.js'
import { MOCK_DEFAULTS, type StartMockOptions } from '../server/start-mock.js'
import { parseIntegerOption } from './parse-integer-option.js'
import { CONTROL_TOKEN_ENV } from './shared-options.js'
import { parseRetryDelays } from '../webhooks/delivery-settings.js'
import { checkEndpointUrl } from '../webhooks/webhook-endpoints.js'
import { checkWebhookSecret } from '../webhooks/webhook-secret.js'

export const MOCK_USAGE = `users-api-kit mock — the stateful mock of the users API

Usage: users-api-kit mock [options]

  --port N            Port to listen on (default ${MOCK_DEFAULTS.port}; 0 = any free port)
  --host H            Address to bind (default ${MOCK_DEFAULTS.host}; 0.0.0.0 opens it to your network)
  --seed N            Faker's seed: the same seed gives the same data (default ${MOCK_DEFAULTS.seed})
  --users N           Fake users added to each organization (default ${MOCK_DEFAULTS.users}; 0 with --fixtures)
  --fixtures FILE     The named organizations, users and tokens (default fixtures/default.json); a
                      saved state (GET /__mock/state) loads exactly, with no fake users unless --users
  --spec FILE         The OpenAPI document (default openapi/users.yaml)
  --latency MIN-MAX   Delay every API call by MIN to MAX ms (or one value: --latency 300)
  --fail-rate P       Answer this fraction of API calls (0 to 1) with 503
  --cors ORIGINS      Allow only these origins, comma-separated (default: any origin on a
                      loopback host; none when --host opens the mock to a network)
  --no-cors           No CORS headers at all
  --control-token T   Require "Authorization: Bearer T" on the /__mock/ routes (or set
                      USERS_API_KIT_CONTROL_TOKEN); do so whenever --host opens the mock to a network
  --state-file FILE   Keep the state in FILE across restarts: loaded at start if it exists,
                      rewritten (atomically) after every change
  --webhook URL       Send the API's events (user.updated, user.deleted) to URL; repeatable
  --webhook-allow-host HOST
                      Let POST /__mock/webhooks subscribe endpoints on HOST too (default: loopback
                      addresses only; the hosts of --webhook are allowed); repeatable
  --webhook-secret S  The whsec_ secret they are signed with (or set USERS_API_KIT_WEBHOOK_SECRET;
                      default: a new one, printed at start); masked in the banner
  --webhook-retry-delays LIST
                      Waits before each retry of a failed delivery (default 500ms,1s,2s,5s,15s,60s)
  --show-secrets      Print the secrets given to the mock in its banner (the webhook secret,
                      credentials and query of --webhook URLs); masked by default
  --log-level LEVEL   debug, info (default: one line a request), warn, error or silent
  --quiet             No request logs: --log-level warn (the banner and warnings stay)
  -h, --help          This help

Per request: "Prefer: code=404" answers that documented error; "Prefer: delay=500" waits 500 ms.
Control routes: GET /__mock/tokens, POST /__mock/target, POST /__mock/reset, GET|PUT /__mock/state,
GET|POST|DELETE /__mock/webhooks, GET /__mock/events (the recent events; a live stream as text/event-stream).`

/** The environment variable that sets the webhook secret (for the same reason). */
const WEBHOOK_SECRET_ENV = 'USERS_API_KIT_WEBHOOK_SECRET'

export interface MockArgs extends StartMockOptions {
  port: number
  host: string
  logLevel: LogLevel
  help: boolean
  /** The banner prints the secrets it was given, unmasked. */
  showSecrets: boolean
  /** Where the webhook secret came from, when it was given. */
  webhookSecretSource?: '--webhook-secret' | typeof WEBHOOK_SECRET_ENV
}

/** Reads the mock's flags (and its environment variable); a bad value is an Error saying what is expected. */
export function parseMockArgs(args: string[], env: NodeJS.ProcessEnv = process.env): MockArgs {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      users: { type: 'string' },
      fixtures: { type: 'string' },
      spec: { type: 'string' },
      latency: { type: 'string' },
      'fail-rate': { type: 'string' },
      cors: { type: 'string' },
      'no-cors': { type: 'boolean' },
      'log-level': { type: 'string' },
      'control-token': { type: 'string' },
      'state-file': { type: 'string' },
      webhook: { type: 'string', multiple: true },
      'webhook-allow-host': { type: 'string', multiple: true },
      'webhook-secret': { type: 'string' },
      'webhook-retry-delays': { type: 'string' },
      quiet: { type: 'boolean' },
      'show-secrets': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const parsed: MockArgs = {
    port: integer('--port', values.port, MOCK_DEFAULTS.port, 0, 65535),
    host: values.host ?? MOCK_DEFAULTS.host,
    seed: integer('--seed', values.seed, MOCK_DEFAULTS.seed, 0, 2 ** 32 - 1),
    logLevel: logLevel(values['log-level'], values.quiet ?? false),
    help: values.help ?? false,
    showSecrets: values['show-secrets'] ?? false,
    cors: values['no-cors']
      ? false
      : values.cors
        ? values.cors.split(',').map((origin) => origin.trim())
        : // A host that keeps the mock to this machine: beyond it, any page a colleague opens could call a shared
          // mock with the public fixture tokens if CORS allowed every origin; there, only `--cors` origins.
          isLoopbackName(values.host ?? MOCK_DEFAULTS.host),
  }
  if (values.fixtures !== undefined) parsed.fixtures = values.fixtures
  if (values.users !== undefined) parsed.users = integer('--users', values.users, MOCK_DEFAULTS.users, 0, 1_000_000)
  if (values.spec !== undefined) parsed.spec = values.spec
  if (values.latency !== undefined) parsed.latency = latency(values.latency)
  if (values['fail-rate'] !== undefined) parsed.failRate = rate(values['fail-rate'])
  const fromFlag = values['control-token']
  const controlToken = fromFlag ?? env[CONTROL_TOKEN_ENV]
  // Empty is refused, not ignored: `T=$(cat missing-file)` must not start an open mock on a network.
  if (controlToken !== undefined) {
    parsed.controlToken = nonEmpty(fromFlag === undefined ? CONTROL_TOKEN_ENV : '--control-token', controlToken)
  }
  if (values['state-file'] !== undefined) parsed.stateFile = nonEmpty('--state-file', values['state-file'])
  parsed.webhooks = {
    endpoints: (values.webhook ?? []).map((url) => ({ url: flagged('--webhook', () => checkEndpointUrl(url)) })),
  }
  const allowHosts = values['webhook-allow-host'] ?? []
  if (allowHosts.length > 0) parsed.webhookAllowHosts = allowHosts.map((host) => allowedHost(host))
  const secret = values['webhook-secret'] ?? env[WEBHOOK_SECRET_ENV]
  const secretSource = values['webhook-secret'] === undefined ? WEBHOOK_SECRET_ENV : '--webhook-secret'
  if (secret !== undefined) {
    parsed.webhooks.secret = flagged(secretSource, () => checkWebhookSecret(secret))
    parsed.webhookSecretSource = secretSource
  }
  const delays = values['webhook-retry-delays']
  if (delays !== undefined) parsed.webhooks.retryDelaysMs = parseRetryDelays(delays)
  return parsed
}

function integer(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  return parseIntegerOption(flag, raw, min, max) ?? fallback
}

/** The check's message, said of the flag. */
function flagged<T>(flag: string, check: () => T): T {
  try {
    return check()
  } catch (error) {
    throw new Error(`${flag}: ${(error as Error).message}`)
  }
}

/** A host name or address, as a URL's host: `hooks.example.com`, `10.0.0.5`, `[fd00::1]`. */
function allowedHost(raw: string): string {
  let host: string | undefined
  try {
    const url = new URL(`http://${raw.trim()}/`)
    host = url.port === '' && url.pathname === '/' && url.username === '' ? url.hostname : undefined
  } catch {
    host = undefined
  }
  if (host === undefined || host === '') {
    throw new Error(`--webhook-allow-host takes a host name or address, such as hooks.example.com (got "${raw}").`)
  }
  return host
}

function nonEmpty(flag: string, raw: string): string {
  if (raw.trim() === '') throw new Error(`${flag} must not be empty.`)
  return raw
}

function latency(raw: string): { min: number; max: number } {
  const match = /^(\d+)(?:-(\d+))?$/.exec(raw)
  const min = Number(match?.[1])
  const max = match?.[2] === undefined ? min : Number(match[2])
  if (!match || max < min)
    throw new Error(`--latency must be MIN-MAX in milliseconds, MIN <= MAX, such as 100-500 (got "${raw}").`)
  return { min, max }
}

function rate(raw: string): number {
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new Error(`--fail-rate must be a number from 0 to 1, such as 0.1 (got "${raw}").`)
  }
  return value
}

function logLevel(value: string | undefined, quiet: boolean): LogLevel {
  if (value === undefined) return quiet ? 'warn' : 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(value)}.`)
  }
  return value as LogLevel
}
