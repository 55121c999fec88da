import { BoundedMap } from './bounded-map.js'
import type { Span } from './user-book.js'
import type { SeenUser } from './users-in-answer.js'

/** One page of a list a client read, as the proxy keeps it. */
export interface SeenPage extends Span {
  page: number
  /** Its users, in order: ids and createdAt only. */
  items: Array<Pick<SeenUser, 'id' | 'createdAt'>>
}

/** Pages kept per list, and lists kept: a client paging through a list reads a few at a time. */
const PAGES_PER_LIST = 32

/**
 * The pages of the lists each caller read, by caller and filter (`role`, `search`, `limit`): what lets
 * the proxy check the order across pages (docs/contract.md §4) without sending anything itself.
 */
export class ListBook {
  private readonly lists: BoundedMap<string, Map<number, SeenPage>>

  constructor(limit: number) {
    this.lists = new BoundedMap(limit)
  }

  record(key: string, page: SeenPage): void {
    const pages = this.lists.get(key) ?? new Map<number, SeenPage>()
    pages.delete(page.page)
    pages.set(page.page, page)
    if (pages.size > PAGES_PER_LIST) pages.delete(pages.keys().next().value as number)
    this.lists.set(key, pages)
  }

  /** The page of a list read last, if it was read. */
  page(key: string, page: number): SeenPage | undefined {
    return this.lists.get(key)?.get(page)
  }
}

/**
 * What names one list of one caller: the same filter and page size give the same pages (the page
 * number is the page's own key).
 */
export function listKey(token: string, query: URLSearchParams): string {
  return JSON.stringify([token, query.get('role') ?? '', query.get('search') ?? '', query.get('limit') ?? ''])
}
