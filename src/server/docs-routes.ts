import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { OpenAPIV3_1 } from 'openapi-types'

/** Response headers the docs app's answers keep when they are passed on. */
const PASSED_HEADERS = ['content-type', 'cache-control', 'etag', 'last-modified', 'location', 'vary']

/**
 * The document at /openapi.json and /openapi.yaml (@fastify/swagger, static mode) and an interactive
 * reference at /docs (@fastify/swagger-ui). They live in a Fastify app of their own, built on the first
 * request for them, the document too: the plugins, the YAML library and the static file server were a
 * fifth of the mock's cold start, and most runs of the mock (tests, CI) never open the docs.
 */
export function registerDocsRoutes(app: FastifyInstance, loadDocument: () => Promise<OpenAPIV3_1.Document>): void {
  let docsApp: Promise<FastifyInstance> | undefined
  const passOn = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    docsApp ??= loadDocument().then(buildDocsApp)
    const response = await (
      await docsApp
    ).inject({
      method: request.method as 'GET' | 'HEAD',
      url: request.url,
      headers: { host: request.headers.host ?? 'localhost' },
    })
    for (const name of PASSED_HEADERS) {
      const value = response.headers[name]
      if (value !== undefined) reply.header(name, value)
    }
    return reply.code(response.statusCode).send(response.rawPayload)
  }
  for (const url of ['/docs', '/docs/*', '/openapi.json', '/openapi.yaml']) app.get(url, passOn)
}

async function buildDocsApp(document: OpenAPIV3_1.Document): Promise<FastifyInstance> {
  const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }, { stringify }] = await Promise.all([
    import('fastify'),
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
    import('yaml'),
  ])
  const docs = Fastify()
  await docs.register(swagger, { mode: 'static', specification: { document: document as never } })
  await docs.register(swaggerUi, {
    routePrefix: '/docs',
    transformSpecification: (specification, request) => withOwnServer(specification as OpenAPIV3_1.Document, request),
    transformSpecificationClone: true,
  })
  docs.get('/openapi.json', async (request) => withOwnServer(docs.swagger() as OpenAPIV3_1.Document, request))
  docs.get('/openapi.yaml', async (request, reply) =>
    reply
      .type('application/yaml; charset=utf-8')
      .send(stringify(withOwnServer(docs.swagger() as OpenAPIV3_1.Document, request))),
  )
  await docs.ready()
  return docs
}

/** The mock's own address first among the servers, so that "Try it out" calls this mock. */
function withOwnServer(document: OpenAPIV3_1.Document, request: FastifyRequest): OpenAPIV3_1.Document {
  const url = `${request.protocol}://${request.host}`
  const others = (document.servers ?? []).filter((server) => server.url !== url)
  return { ...document, servers: [{ url, description: 'This mock.' }, ...others] }
}
