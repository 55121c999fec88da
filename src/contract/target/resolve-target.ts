import { AppError } from '../../errors.js'
import { acceptsConnections } from './accepts-connections.js'
import { JsonTooDeep, JsonTooLarge, parseBoundedJson } from '../../text/json-depth.js'
import { readBoundedBody, ResponseTooLarge } from '../../http/read-bounded-body.js'
import type { IncomingAnswer } from '../../http/transport.js'
import { defaultTransport } from '../client/default-transport.js'
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../http/response-limits.js'
import { parseTarget, readTargetFile, type Target } from './target.js'
import { describeTransportFailure } from '../client/transport-failure.js'
import { describeUnusableAnswer } from '../client/unusable-answer.js'

/** Where a run's target comes from: a target file, or a running mock (whose control routes may need a token). */
export interface TargetSource {
  targetFile?: string
  baseUrl?: string
  /** Sent as `Authorization: Bearer` to `POST /__mock/target` (a mock started with --control-token). */
  controlToken?: string
  /** How many disposable users to ask a mock for (`gate` needs more than the mock's default). */
  disposable?: number
}

/**
 * The target of a run: a target file, or a running mock's own (`POST /__mock/target`, the route
 * the suite reads its target from), read within `timeoutMs` and `maxResponseBytes` like any answer.
 * Every failure says what to do instead.
 *
 * @example
 * const target = await resolveTarget({ baseUrl: 'http://127.0.0.1:4010', controlToken: 's3cret' }, 10_000)
 */
export async function resolveTarget(
  source: TargetSource,
  timeoutMs: number,
  maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<Target> {
  if (source.targetFile) return readTargetFile(source.targetFile)
  if (!source.baseUrl)
    throw new AppError(
      'VALIDATION_FAILED',
      'Give --target FILE (any backend) or --base-url URL (a running users-api-kit mock).',
    )
  const url = `${checkBaseUrl(source.baseUrl)}/__mock/target`
  const query = source.disposable === undefined ? '' : `?disposable=${source.disposable}`
  let response: IncomingAnswer
  try {
    // A redirect would take the control token elsewhere: it is reported, never followed (the transport follows none).
    response = await defaultTransport()({
      method: 'POST',
      url: `${url}${query}`,
      headers: source.controlToken === undefined ? {} : { authorization: `Bearer ${source.controlToken}` },
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    const failure = describeTransportFailure(error, timeoutMs)
    const reason = failure.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : failure.reason
    throw new AppError(
      'VALIDATION_FAILED',
      `Cannot reach ${source.baseUrl} (${reason}). Is the mock running? Start it with: npx users-api-kit mock`,
    )
  }
  const ok = response.status >= 200 && response.status <= 299
  // An answer that is not the target is not read: its connection goes with it.
  if (!ok) await response.body?.cancel()
  if (response.status === 401) {
    const refused = source.controlToken === undefined ? '' : ' The control token given was refused.'
    throw new AppError(
      'VALIDATION_FAILED',
      `${url} answered 401: this mock requires its control token: pass --control-token or set USERS_API_KIT_CONTROL_TOKEN.${refused}`,
    )
  }
  if (!ok) {
    const location = response.headers.location
    const redirect = location === undefined ? '' : ` (a redirect to ${new URL(location, url).href}, not followed)`
    throw new AppError(
      'VALIDATION_FAILED',
      `${url} answered ${response.status}${redirect}: --base-url works with a users-api-kit mock only. For any other backend, write a target file (schemas/target.schema.json) and give --target FILE.`,
    )
  }
  let document: unknown
  try {
    document = parseBoundedJson(await readBoundedBody(response, maxResponseBytes))
  } catch (error) {
    if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') {
      throw new AppError(
        'VALIDATION_FAILED',
        `${url} began to answer but its body did not arrive within ${timeoutMs} ms. Is the mock overloaded? Try a larger --timeout.`,
      )
    }
    if (error instanceof ResponseTooLarge || error instanceof JsonTooDeep || error instanceof JsonTooLarge) {
      throw new AppError(
        'VALIDATION_FAILED',
        `${url} answered ${error.message}: no users-api-kit mock answers that. For any other backend, give --target FILE.`,
      )
    }
    throw new AppError(
      'VALIDATION_FAILED',
      `${url} answered ${response.status} ${response.headers['content-type'] ?? '(no content type)'} that is not JSON: --base-url works with a users-api-kit mock only. For any other backend, give --target FILE.`,
    )
  }
  const target = parseTarget(document)
  // The receiver subscribes itself through the same control routes, with the same token.
  if (target.webhooks && target.webhooks.autoSubscribe && source.controlToken !== undefined) {
    target.webhooks.controlToken = source.controlToken
  }
  return target
}

/**
 * Tells "unreachable" (exit 2) from "broken" (exit 1) before a run. Throws when nothing accepted a
 * connection: refused, no such host, TLS failed, or no TCP connection within
 * the timeout. A server that accepts the connection and then hangs, resets it, answers something other
 * than HTTP, an HTML page or a redirect is there and broken: the run goes on so that its report says
 * so, and the answer is a note saying what the first request got. Undefined when it answered over HTTP.
 */
export async function assertReachable(
  target: Target,
  timeoutMs: number,
  maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<string | undefined> {
  const url = `${target.baseUrl}/api/users/me`
  let received: string | undefined
  let response: IncomingAnswer | undefined
  try {
    // The signal bounds the whole answer, the body's last byte included; the body is read within the size limit.
    response = await defaultTransport()({ method: 'GET', url, headers: {}, signal: AbortSignal.timeout(timeoutMs) })
    const answer = { status: response.status, headers: response.headers, text: '' }
    try {
      answer.text = await readBoundedBody(response, maxResponseBytes)
    } catch (error) {
      if (!(error instanceof ResponseTooLarge)) throw error
      return noteOf(target, `${response.status} with ${error.message}`)
    }
    received = describeUnusableAnswer({ request: { method: 'GET', url, headers: {} }, response: answer })
  } catch (error) {
    const failure = describeTransportFailure(error, timeoutMs)
    const connected =
      failure.kind === 'dropped' ||
      failure.kind === 'not-http' ||
      (failure.kind !== 'unreachable' && (await acceptsConnections(target.baseUrl, timeoutMs)))
    if (!connected) {
      const reason = failure.kind === 'timeout' ? `no connection within ${timeoutMs} ms` : failure.reason
      throw new AppError(
        'VALIDATION_FAILED',
        `Cannot reach the target ${target.baseUrl} (${reason}). Is it running, and is baseUrl right?`,
      )
    }
    received =
      failure.kind === 'timeout' && response
        ? `no complete response within ${timeoutMs} ms (${response.status} and its headers came, the body was still arriving)`
        : failure.reason
  }
  return received === undefined ? undefined : noteOf(target, received)
}

function noteOf(target: Target, received: string): string {
  return `The target ${target.baseUrl} accepts connections, but GET /api/users/me got ${received}. It is tested anyway: its checks fail saying why.`
}

/**
 * A mock's base URL as the user meant it, or the mistake said plainly: no scheme (`127.0.0.1:4010`), or
 * the API's own path (`…/api`, `…/api/users`) where the mock's root belongs.
 */
export function checkBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '')
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `--base-url ${baseUrl} has no scheme: give --base-url http://${trimmed} (the mock's root, with http:// or https://).`,
    )
  }
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    throw new AppError(
      'VALIDATION_FAILED',
      `--base-url ${baseUrl} is not a URL: give the mock's root, e.g. http://127.0.0.1:4010.`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError(
      'VALIDATION_FAILED',
      `--base-url ${baseUrl} is not http or https: give the mock's root, e.g. http://127.0.0.1:4010.`,
    )
  }
  const apiPath = /\/api(\/.*)?$/.exec(url.pathname)
  if (apiPath) {
    const root = `${url.origin}${url.pathname.slice(0, apiPath.index)}`
    throw new AppError(
      'VALIDATION_FAILED',
      `--base-url ${baseUrl} points into the users API (${url.pathname}); give the mock's root instead: --base-url ${root}`,
    )
  }
  return trimmed
}
