// The page of test/transports/msw-browser.test.ts, bundled by esbuild: the kit's MSW handlers behind msw's
// Service Worker, as a frontend's dev build would start them. No DOM types (tsconfig's lib is ES2023):
// the page hands the test its functions on globalThis rather than writing to the document.
import { setupWorker } from 'msw/browser'
import { createMockHandlers } from '../../src/msw/index.js'

/** One request as the test asks the page to send it. */
export interface PageRequest {
  /** Absolute (`http://127.0.0.1:1/api/users`) or on the page's origin (`/api/users`). */
  url: string
  method?: string
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string
  /** Sent as JSON with `Content-Type: application/json`. */
  json?: unknown
}

/** What the page saw: the response, or the error fetch rejected with. */
export type PageExchange =
  | {
      status: number
      contentType: string | null
      wwwAuthenticate: string | null
      text: string
      /** The parsed body; undefined when it is empty or not JSON. */
      body: unknown
    }
  | { error: string }

/** What the page puts on globalThis for the test to call through `page.evaluate`. */
export interface MswPage {
  /** Settles once the worker is registered and mocking (rejects if it could not start). */
  mswReady: Promise<void>
  callApi(request: PageRequest): Promise<PageExchange>
  resetMock(): Promise<void>
}

// Default options: `/api` on any origin, the page's own and an API origin where nothing listens alike.
const { handlers, mock } = createMockHandlers()
const worker = setupWorker(...handlers)

async function callApi(request: PageRequest): Promise<PageExchange> {
  const headers: Record<string, string> = {}
  if (request.token !== undefined) headers['authorization'] = `Bearer ${request.token}`
  if (request.json !== undefined) headers['content-type'] = 'application/json'
  try {
    const response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers,
      ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
    })
    const text = await response.text()
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      wwwAuthenticate: response.headers.get('www-authenticate'),
      text,
      body,
    }
  } catch (error) {
    return { error: String(error) }
  }
}

const page: MswPage = {
  mswReady: worker
    .start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledFrame: 'bypass', quiet: true })
    .then(() => undefined),
  callApi,
  resetMock: async () => (await mock).reset(),
}
Object.assign(globalThis, page)
