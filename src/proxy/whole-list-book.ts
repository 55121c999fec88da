import { BoundedMap } from './bounded-map.js'
import type { Span } from './user-book.js'
import type { SeenUser } from './users-in-answer.js'

/** An organization's whole list, read page by page with no write through the proxy in between. */
export interface WholeList extends Span {
  organizationId: string
  /** Every user, in the order the pages gave them. */
  users: readonly SeenUser[]
  /** When its first page was read, in ms (performance.now). */
  seenAt: number
  /** The writes through the proxy it followed since (follow()). */
  followed: number
  /** Who read its pages, for people: `the CLIENT_OWNER usr_…`. */
  readers: string[]
}

/** One unfiltered page, as a list answer gave it. */
export interface UnfilteredPage extends Span {
  organizationId: string
  page: number
  limit: number
  total: number
  items: readonly SeenUser[]
  seenAt: number
  reader: string
}

/** Past this many users an organization's list is not kept whole: a client rarely reads more. */
export const WHOLE_LIST_USERS = 1_000

/** Organizations (and page sizes) whose pages are kept: a test run reads a few. */
const LISTS = 16

/**
 * The pages of each organization's unfiltered list, by page size, and the latest list read whole: every
 * page from the first to the last that `total` gives, none with a write through the proxy between the
 * first's start and the last's end. Bounded: LISTS lists of at most WHOLE_LIST_USERS users.
 */
export class WholeListBook {
  private readonly pages: BoundedMap<string, { total: number; pages: Map<number, UnfilteredPage> }> = new BoundedMap(
    LISTS,
  )
  private readonly wholes: BoundedMap<string, WholeList> = new BoundedMap(LISTS)

  /** Records a page; `changedBetween` says whether a write through the proxy may have come between two points. */
  record(page: UnfilteredPage, changedBetween: (from: number, to: number) => boolean): void {
    const { total, limit } = page
    const lastPage = Math.max(1, Math.ceil(total / limit))
    if (total > WHOLE_LIST_USERS || page.page > lastPage) return
    if (page.items.length !== Math.min(limit, total - (page.page - 1) * limit)) return
    const key = `${page.organizationId}\u0000${limit}`
    const known = this.pages.get(key)
    // Another total: the list changed, its other pages are of another list.
    const list = known?.total === total ? known : { total, pages: new Map<number, UnfilteredPage>() }
    list.pages.set(page.page, page)
    this.pages.set(key, list)
    const read = Array.from({ length: lastPage }, (_, index) => list.pages.get(index + 1))
    if (read.some((one) => one === undefined)) return
    const all = read as UnfilteredPage[]
    const startedAt = Math.min(...all.map((one) => one.startedAt))
    const endedAt = Math.max(...all.map((one) => one.endedAt))
    if (changedBetween(startedAt, endedAt)) return
    const users = all.flatMap((one) => one.items)
    if (new Set(users.map((user) => user.id)).size !== users.length) return
    const seenAt = Math.min(...all.map((one) => one.seenAt))
    const { organizationId } = page
    const readers = [...new Set(all.map((one) => one.reader))]
    this.wholes.set(organizationId, { organizationId, users, startedAt, endedAt, seenAt, followed: 0, readers })
  }

  /**
   * A write through the proxy whose answer says what it did (a PATCH answered 2xx shows the user after
   * it, a DELETE answered 204 removed them): the whole list it came after, with no other write since,
   * is followed, and stays whole; otherwise it is dropped.
   */
  follow(
    organizationId: string,
    change: { replace: SeenUser } | { remove: string },
    write: Span,
    changedBetween: (from: number, to: number, except: readonly number[]) => boolean,
  ): void {
    const whole = this.wholes.get(organizationId)
    if (!whole) return
    const id = 'replace' in change ? change.replace.id : change.remove
    const at = whole.users.findIndex((user) => user.id === id)
    if (
      at === -1 ||
      whole.endedAt >= write.startedAt ||
      changedBetween(whole.startedAt, write.endedAt, [write.startedAt])
    ) {
      this.wholes.delete(organizationId)
      return
    }
    const users = [...whole.users]
    if ('replace' in change) users[at] = change.replace
    else users.splice(at, 1)
    const span = { startedAt: write.endedAt, endedAt: write.endedAt }
    this.wholes.set(organizationId, { ...whole, ...span, users, followed: whole.followed + 1 })
  }

  /** The organization's list as last read whole, if it was. */
  whole(organizationId: string): WholeList | undefined {
    return this.wholes.get(organizationId)
  }
}
