import { dataOf, operationOf, statusOf, type ObservedExchange } from './observed-exchange.js'
import { listItemsOf, type SeenUser } from './users-in-answer.js'

/** A page of the list whose meta is the page and limit the request asked for. */
export interface ListAnswer {
  page: number
  limit: number
  total: number
  items: SeenUser[]
}

/**
 * A 200 answer of a valid list request, its meta agreeing with the page and limit asked for; undefined
 * for any other (list-pages-add-up reports a meta that disagrees).
 */
export function readListAnswer(observed: ObservedExchange): ListAnswer | undefined {
  if (operationOf(observed) !== 'listUsers' || statusOf(observed) !== 200 || !observed.valid) return undefined
  const data = dataOf(observed)
  const meta = (observed.exchange.response.body as { meta?: Record<string, unknown> } | undefined)?.meta
  const [page, limit] = [requested(observed, 'page'), requested(observed, 'limit')]
  if (!Array.isArray(data) || typeof meta !== 'object' || meta === null) return undefined
  if (meta.page !== page || meta.limit !== limit || !Number.isSafeInteger(meta.total)) return undefined
  const items = listItemsOf(observed) ?? []
  if (items.length !== data.length || page === undefined || limit === undefined) return undefined
  return { page, limit, total: meta.total as number, items }
}

/** A page or limit the request asked for, or the document's default. */
export function requested(observed: ObservedExchange, name: 'page' | 'limit'): number | undefined {
  const given = observed.query.get(name)
  if (given !== null) return Number(given)
  const parameter = observed.exchange.operation?.parameters.find((candidate) => candidate.name === name)
  const fallback = (parameter?.schema as { default?: unknown } | undefined)?.default
  return typeof fallback === 'number' ? fallback : undefined
}
