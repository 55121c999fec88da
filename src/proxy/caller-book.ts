import { BoundedMap } from './bounded-map.js'

/** A success answered to a token: the end of its exchange on the proxy's clock, and when that was, in ms. */
export interface Acceptance {
  endedAt: number
  seenAt: number
}

/** How many of a token's latest successes are kept: as many requests as a client overlaps on one token. */
const ACCEPTANCES_KEPT = 8

/** Who a token belongs to, as far as the proxy learned it. */
export interface Caller {
  /** From their GET /api/users/me. */
  userId?: string
  organizationId?: string
  /** `me`: their own answer said so; `list`: a list they read held that organization's users alone. */
  organizationFrom?: 'me' | 'list'
}

/**
 * The callers the proxy met, by token (docs/contract.md §2: the token alone tells who the caller is).
 * Tokens stay in memory only, so that findings can mask them wherever a backend echoes one; never in a
 * report, a page or a log line.
 */
export class CallerBook {
  private readonly callers: BoundedMap<string, Caller>
  /**
   * When each token was last answered a success, its last few times (the end of each exchange, on the
   * proxy's clock and in ms): a client sends one token on many requests at once, and the answer to one
   * that ends while another is in flight must not hide the acceptance that came before that other began.
   */
  private readonly accepted: BoundedMap<string, Acceptance[]>

  constructor(limit: number) {
    this.callers = new BoundedMap(limit)
    this.accepted = new BoundedMap(limit)
  }

  /** The token was answered a success. */
  learnAccepted(token: string, endedAt: number, seenAt: number): void {
    const recent = [...(this.accepted.get(token) ?? []), { endedAt, seenAt }]
    this.accepted.set(token, recent.sort((a, b) => a.endedAt - b.endedAt).slice(-ACCEPTANCES_KEPT))
  }

  /** The token's last success that ended before `startedAt` (an exchange that began then), if the proxy kept it. */
  lastAcceptedBefore(token: string, startedAt: number): Acceptance | undefined {
    return this.accepted.get(token)?.findLast((acceptance) => acceptance.endedAt < startedAt)
  }

  get(token: string): Caller {
    return this.callers.get(token) ?? {}
  }

  learnFromMe(token: string, userId: string, organizationId: string | undefined): void {
    this.callers.set(token, {
      userId,
      ...(organizationId === undefined ? {} : { organizationId, organizationFrom: 'me' as const }),
    })
  }

  learnOrganizationFromList(token: string, organizationId: string): void {
    const caller = this.get(token)
    if (caller.organizationId !== undefined) return
    this.callers.set(token, { ...caller, organizationId, organizationFrom: 'list' })
  }

  /** Every token the proxy holds: what findings mask. */
  tokens(): string[] {
    return [...new Set([...this.callers.keys(), ...this.accepted.keys()])]
  }
}
