import { documentedPathOf, hasNoBodyByHttp, type Exchange } from '../client/exchange.js'
import { describeValue } from './describe-value.js'
import { defineCheck } from './define-check.js'

export const successIsADataEnvelope = defineCheck({
  name: 'success-is-a-data-envelope',
  rule: 'A success body is a JSON object with the key data, and the list also meta (docs/contract.md §4; core for /api/users/me)',
  layer: 'core',
  covers: ['§4.envelope', '§4.list.answer'],
  verify(exchange, { layer }) {
    const { response } = exchange
    if (response.status < 200 || response.status > 299 || hasNoBodyByHttp(exchange)) return undefined
    const path = documentedPathOf(exchange)
    // CONTRACT §4: "Every success body is an envelope with the key data [core for /me]".
    if (layer === 'core' && !path.endsWith('/api/users/me')) return undefined
    const body = response.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return `Received: ${describeValue(body === undefined ? response.text : body)}\nDocumented: { "data": … }`
    }
    if (!('data' in body))
      return `Received: an object with the keys ${describeValue(Object.keys(body))}\nDocumented: { "data": … }`
    if (layer === 'all' && isList(exchange)) {
      const meta = (body as { meta?: unknown }).meta
      if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
        return `Received: meta ${describeValue(meta)}\nDocumented: { "data": [User, …], "meta": { "page", "limit", "total", "totalPages" } }`
      }
    }
    return undefined
  },
})

/** GET /api/users, the list (CONTRACT §4). */
function isList(exchange: Exchange): boolean {
  return exchange.request.method.toUpperCase() === 'GET' && documentedPathOf(exchange).endsWith('/api/users')
}
