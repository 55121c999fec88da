import { http, type RequestHandler } from 'msw'
import { createFetchHandler } from '../fetch/create-fetch-handler.js'
import { isUnderPath } from '../http/request-target.js'
import {
  createUsersApiMock,
  type UsersApiMock,
  type UsersApiMockOptions,
} from '../mock-instance/create-users-api-mock.js'
import { isUnderApi, rawSegments } from '../spec/path-templates.js'

export interface MockHandlersOptions extends UsersApiMockOptions {
  /**
   * The origin (and path prefix) your code calls the users API on, e.g. `http://localhost:4010` or
   * `/backend`. Default: `/api` and everything under it, on every origin.
   */
  baseUrl?: string
  /** A mock instance to answer with; default: a new one from the options. */
  mock?: UsersApiMock | Promise<UsersApiMock>
}

/**
 * MSW request handlers for the users API: the same engine as the mock server, in the browser
 * (`setupWorker`) or in Node tests (`setupServer`). `mock` is the instance behind them: reset it
 * between tests, read or replace its state.
 *
 * @example
 * import { setupWorker } from 'msw/browser'
 * import { createMockHandlers } from 'users-api-kit/msw'
 * const { handlers, mock } = createMockHandlers({ baseUrl: 'http://localhost:4010' })
 * await setupWorker(...handlers).start()
 * // later: (await mock).reset()
 */
export function createMockHandlers(options: MockHandlersOptions = {}): {
  handlers: RequestHandler[]
  mock: Promise<UsersApiMock>
} {
  const mock = Promise.resolve(options.mock ?? createUsersApiMock(options))
  const base = parseBaseUrl(options.baseUrl)
  const handle = createFetchHandler({ mock, basePath: base.path })
  // A predicate, not the patterns `*/api` and `*/api/*`: msw's `*` spans path segments too, so those took
  // any path with an `/api/` in it, such as https://maps.example/maps/api/geocode, and answered it 404.
  const isUsersApi = ({ request }: { request: Request }): boolean => {
    const url = new URL(request.url)
    if (base.origin !== undefined && url.origin !== base.origin) return false
    return isUnderPath(url.pathname, base.path) && isUnderApi(rawSegments(url.pathname.slice(base.path.length)))
  }
  return {
    handlers: [http.all(isUsersApi, ({ request }) => handle(request))],
    mock,
  }
}

/** `http://host:4010/prefix` → origin and path prefix; none → any origin (no `origin`), no prefix. */
function parseBaseUrl(baseUrl: string | undefined): { origin?: string; path: string } {
  if (baseUrl === undefined || baseUrl === '') return { path: '' }
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/]+)?(.*)$/i.exec(baseUrl)
  const origin = match?.[1]
  const path = (match?.[2] ?? '').replace(/\/+$/, '')
  // As a request's URL spells them: `HTTP://LocalHost:80` is `http://localhost`, a space in a path `%20`.
  return {
    ...(origin === undefined ? {} : { origin: new URL(origin).origin }),
    path: path === '' ? '' : new URL(path, 'http://base.invalid').pathname.replace(/\/+$/, ''),
  }
}
