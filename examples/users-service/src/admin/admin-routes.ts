import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../database/database.js'
import { hashToken, newId, newToken, newWebhookSecret } from '../random-ids.js'
import { ROLES } from '../users/permissions.js'

// What the users API does not do (docs/contract.md: it has no way to create users or subscribe an
// endpoint), for the people who run the service and for scripts such as scripts/seed-contract.ts.
// Guarded by one secret, the admin token, sent as `x-admin-token`.

export interface AdminOptions {
  db: Database
  adminToken: string
}

const NEW_USER = {
  type: 'object',
  required: ['name', 'email', 'role', 'status'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    email: { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' },
    role: { enum: ROLES },
    status: { enum: ['ACTIVE', 'INVITED', 'SUSPENDED'] },
  },
} as const

/** POST /admin/organizations, …/{id}/users (several at once, one transaction), …/{id}/webhook-endpoints. */
export async function adminRoutes(app: FastifyInstance, { db, adminToken }: AdminOptions): Promise<void> {
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    app.getDefaultJsonParser('error', 'error'),
  )
  const expected = Buffer.from(adminToken)
  app.addHook('onRequest', async (request, reply) => {
    const sent = Buffer.from(String(request.headers['x-admin-token'] ?? ''))
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      return reply.code(401).type('application/problem+json').send({
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'Send the admin token in x-admin-token.',
      })
    }
  })

  // A duplicate email (23505) or an unknown organization (23503) is the caller's mistake, not a 500.
  app.setErrorHandler(async (error: { code?: string; statusCode?: number; message: string }, _request, reply) => {
    const status = error.code === '23505' ? 409 : error.code === '23503' ? 404 : (error.statusCode ?? 500)
    const detail = status === 500 ? 'The service failed to answer.' : error.message
    return reply.code(status).type('application/problem+json').send({ type: 'about:blank', status, detail })
  })

  app.post<{ Body: { name: string } }>(
    '/admin/organizations',
    {
      schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } } },
    },
    async (request, reply) => {
      const id = newId('org')
      await db.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [id, request.body.name])
      return reply.code(201).send({ id, name: request.body.name })
    },
  )

  // Users created by one request share one createdAt (the transaction's now()): the list orders them by id.
  app.post<{
    Params: { organizationId: string }
    Body: { users: Array<{ name: string; email: string; role: string; status: string }> }
  }>(
    '/admin/organizations/:organizationId/users',
    {
      schema: {
        body: {
          type: 'object',
          required: ['users'],
          properties: { users: { type: 'array', minItems: 1, maxItems: 1000, items: NEW_USER } },
        },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params
      const created = await db.transaction(async (tx) => {
        const users = []
        for (const user of request.body.users) {
          const id = newId('usr')
          const token = newToken()
          await tx.query(
            'INSERT INTO users (id, organization_id, email, name, role, status) VALUES ($1, $2, $3, $4, $5, $6)',
            [id, organizationId, user.email, user.name.trim(), user.role, user.status],
          )
          await tx.query('INSERT INTO api_tokens (token_hash, user_id) VALUES ($1, $2)', [hashToken(token), id])
          users.push({ id, email: user.email, role: user.role, status: user.status, token })
        }
        return users
      })
      return reply.code(201).send({ users: created })
    },
  )

  app.post<{ Params: { organizationId: string }; Body: { url: string; secret?: string } }>(
    '/admin/organizations/:organizationId/webhook-endpoints',
    {
      schema: {
        body: {
          type: 'object',
          required: ['url'],
          additionalProperties: false,
          properties: {
            url: { type: 'string', pattern: '^https?://' },
            secret: { type: 'string', pattern: '^whsec_[A-Za-z0-9+/]{16,}={0,2}$' },
          },
        },
      },
    },
    async (request, reply) => {
      const id = newId('whep')
      const secret = request.body.secret ?? newWebhookSecret()
      await db.query('INSERT INTO webhook_endpoints (id, organization_id, url, secret) VALUES ($1, $2, $3, $4)', [
        id,
        request.params.organizationId,
        request.body.url,
        secret,
      ])
      return reply.code(201).send({ id, url: request.body.url, secret })
    },
  )
}
