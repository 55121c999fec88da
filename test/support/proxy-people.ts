import { aUser, type ExchangeDraft } from './exchange-builder.js'

// Hand-made users and drafts for the proxy's rules: one organization (Acme) of four, and an outsider.

const ACME = 'org_acme'
const at = (minute: number): string => `2024-01-08T09:${String(minute).padStart(2, '0')}:00.000Z`

export const OWNER = aUser({
  id: 'usr_owner',
  role: 'CLIENT_OWNER',
  organizationId: ACME,
  createdAt: at(1),
  updatedAt: at(1),
})
export const ADMIN = aUser({
  id: 'usr_admin',
  role: 'CLIENT_ADMIN',
  organizationId: ACME,
  email: 'a@acme.test',
  name: 'Ada Admin',
  createdAt: at(2),
  updatedAt: at(2),
})
export const VIEWER = aUser({
  id: 'usr_viewer',
  role: 'CLIENT_VIEWER',
  organizationId: ACME,
  email: 'v@acme.test',
  name: 'Vic Viewer',
  createdAt: at(3),
  updatedAt: at(3),
})
export const BOT = aUser({
  id: 'usr_bot',
  role: 'BOT_USER',
  organizationId: ACME,
  email: 'b@acme.test',
  name: 'Build Bot',
  createdAt: at(4),
  updatedAt: at(4),
})
export const OUTSIDER = aUser({
  id: 'usr_outsider',
  role: 'CLIENT_OWNER',
  organizationId: 'org_globex',
  email: 'o@globex.test',
  name: 'Otto Outsider',
  createdAt: at(5),
  updatedAt: at(5),
})
export const ACME_USERS = [OWNER, ADMIN, VIEWER, BOT]

/** GET /api/users/me answered with the caller. */
export function meOf(token: string, user: Record<string, unknown>): ExchangeDraft {
  return { path: '/api/users/me', token, status: 200, json: { data: user } }
}

/** A 200 list answer with its meta computed from `total`. */
export function listOf(
  token: string,
  users: Array<Record<string, unknown>>,
  query = '',
  meta: Partial<Record<'page' | 'limit' | 'total' | 'totalPages', number>> = {},
): ExchangeDraft {
  const params = new URLSearchParams(query)
  const page = Number(params.get('page') ?? 1)
  const limit = Number(params.get('limit') ?? 20)
  const total = meta.total ?? users.length
  return {
    path: `/api/users${query === '' ? '' : `?${query}`}`,
    token,
    status: 200,
    json: { data: users, meta: { page, limit, total, totalPages: Math.ceil(total / limit), ...meta } },
  }
}

/** A PATCH of a user with a JSON body, answered `status` with `answer` (a user) or a problem. */
export function patchOf(
  token: string,
  id: string,
  body: unknown,
  status: number,
  answer?: Record<string, unknown>,
): ExchangeDraft {
  return {
    method: 'PATCH',
    path: `/api/users/${id}`,
    token,
    requestHeaders: { 'content-type': 'application/json' },
    requestBody: JSON.stringify(body),
    status,
    json: answer === undefined ? problem(status) : { data: answer },
  }
}

/** A problem of the contract's table for a status. */
export function problem(status: number, code?: string): Record<string, unknown> {
  const codes: Record<number, string> = {
    400: 'VALIDATION_FAILED',
    401: 'UNAUTHENTICATED',
    403: 'FORBIDDEN',
    404: 'USER_NOT_FOUND',
    409: 'INVALID_TRANSITION',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
  }
  const titles: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    413: 'Content Too Large',
    415: 'Unsupported Media Type',
  }
  return {
    type: 'about:blank',
    title: titles[status] ?? 'Error',
    status,
    code: code ?? codes[status] ?? 'INTERNAL',
    detail: 'Something was refused.',
    ...(status === 400 ? { errors: [{ in: 'body', path: '', message: 'is wrong' }] } : {}),
  }
}
