import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { OpenAPIV3_1 } from 'openapi-types'
import type { TokenListing } from '../mock-instance/token-listing.js'
import { registerDocPages } from './doc-pages.js'

/** Response headers the docs app's answers keep when they are passed on. */
const PASSED_HEADERS = ['content-type', 'cache-control', 'etag', 'last-modified', 'location', 'vary']

const TITLE = 'users-api-kit · the users API mock'
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="40" viewBox="0 0 240 40"><rect width="40" height="40" rx="8" fill="#1f6feb"/><text x="20" y="27" font-family="sans-serif" font-size="18" font-weight="700" fill="#fff" text-anchor="middle">U</text><text x="52" y="27" font-family="sans-serif" font-size="18" font-weight="600" fill="#fff">users-api-kit</text></svg>`

export interface DocsOptions {
  /** The document as written, read on the first request for the docs. */
  loadDocument: () => Promise<OpenAPIV3_1.Document>
  /** The tokens to list in the Authorize dialog; undefined when the mock is shared (a control token). */
  tokens: () => TokenListing[] | undefined
  /** Runs before each answer of the reference: the guard against other origins and DNS rebinding. */
  onRequest: (request: FastifyRequest) => Promise<void>
}

/**
 * The document at /openapi.json and /openapi.yaml (@fastify/swagger, static mode), the kit's own
 * interactive reference at /docs (@fastify/swagger-ui: its title and logo, the tokens in the Authorize
 * dialog, links to the contract and the README), and those two pages. The reference lives in a Fastify
 * app of its own, built on the first request: the plugins, the YAML library and the static file server
 * were a fifth of the mock's cold start, and most runs of the mock (tests, CI) never open the docs.
 */
export function registerDocsRoutes(app: FastifyInstance, options: DocsOptions): void {
  let docsApp: Promise<FastifyInstance> | undefined
  const passOn = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    docsApp ??= options.loadDocument().then((document) => buildDocsApp(document, options.tokens))
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
  for (const url of ['/docs', '/docs/*', '/openapi.json', '/openapi.yaml']) {
    app.get(url, { onRequest: options.onRequest }, passOn)
  }
  registerDocPages(app)
}

async function buildDocsApp(document: OpenAPIV3_1.Document, tokens: DocsOptions['tokens']): Promise<FastifyInstance> {
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
    theme: {
      title: TITLE,
      favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: LOGO }],
    },
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: '/docs', target: '_self' },
    uiConfig: { persistAuthorization: true, tryItOutEnabled: true },
    transformSpecification: (specification, request) =>
      forThisMock(specification as OpenAPIV3_1.Document, request, tokens()),
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

/** What /docs shows: this mock's server, links to the contract and the README, the tokens to try. */
function forThisMock(
  document: OpenAPIV3_1.Document,
  request: FastifyRequest,
  tokens: TokenListing[] | undefined,
): OpenAPIV3_1.Document {
  const own = withOwnServer(document, request)
  const links =
    '**This is a users-api-kit mock.** [The contract](/docs/contract) (docs/contract.md) says every rule; ' +
    '[the README](/docs/readme) how to use the mock, the contract suite and the fuzzer.\n\n'
  const bearer = own.components?.securitySchemes?.['bearerAuth'] as OpenAPIV3_1.HttpSecurityScheme | undefined
  return {
    ...own,
    info: { ...own.info, description: `${links}${own.info.description ?? ''}` },
    components: {
      ...own.components,
      securitySchemes: {
        ...own.components?.securitySchemes,
        ...(bearer
          ? { bearerAuth: { ...bearer, description: `${tokenHint(tokens)}\n\n${bearer.description ?? ''}` } }
          : {}),
      },
    },
  }
}

/**
 * Tokens and organization ids come from the state, which anyone who reaches the control routes sets:
 * only those made of RFC 6750's token characters are shown (as Markdown code), so that none can write
 * Markdown or HTML into the page (a token once injected an <img>). The others stay in GET /__mock/tokens.
 */
const SHOWN_AS_IS = /^[A-Za-z0-9._~+/=-]{1,200}$/

function tokenHint(tokens: TokenListing[] | undefined): string {
  if (tokens === undefined) {
    return 'This mock is shared: its tokens are listed by `GET /__mock/tokens` with its control token.'
  }
  const active = tokens.filter(
    (entry) =>
      entry.status === 'ACTIVE' &&
      !entry.token.startsWith('tok_') &&
      SHOWN_AS_IS.test(entry.token) &&
      SHOWN_AS_IS.test(entry.organizationId),
  )
  const rows = active.slice(0, 12).map((entry) => `- \`${entry.token}\`: ${entry.role} of \`${entry.organizationId}\``)
  return `Paste one of this mock's tokens (all of them: \`GET /__mock/tokens\`):\n\n${rows.join('\n')}`
}
