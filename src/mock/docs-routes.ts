import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { OpenAPIV3_1 } from 'openapi-types'

/**
 * The document as written, at /openapi.json and /openapi.yaml, and an interactive reference at /docs.
 * The mock's own address comes first among the servers, so "Try it out" calls this mock.
 */
export async function registerDocsRoutes(app: FastifyInstance, document: OpenAPIV3_1.Document): Promise<void> {
  await app.register(swagger, { mode: 'static', specification: { document: document as never } })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    transformSpecification: (specification, request) => withOwnServer(specification as OpenAPIV3_1.Document, request),
    transformSpecificationClone: true,
  })
  app.get('/openapi.json', { schema: { hide: true } }, async (request) => withOwnServer(document, request))
  app.get('/openapi.yaml', { schema: { hide: true } }, async (request, reply) => {
    const { stringify } = await import('yaml') // Loaded on first use: it weighs on the cold start.
    return reply.type('application/yaml; charset=utf-8').send(stringify(withOwnServer(document, request)))
  })
}

function withOwnServer(document: OpenAPIV3_1.Document, request: FastifyRequest): OpenAPIV3_1.Document {
  const url = `${request.protocol}://${request.host}`
  const others = (document.servers ?? []).filter((server) => server.url !== url)
  return { ...document, servers: [{ url, description: 'This mock.' }, ...others] }
}
