import { BoundedMap } from './bounded-map.js'

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
  /** When each token was last answered a success: the end of that exchange, on the proxy's clock and in ms. */
  private readonly accepted: BoundedMap<string, { endedAt: number; seenAt: number }>

  constructor(limit: number) {
    this.callers = new BoundedMap(limit)
    this.accepted = new BoundedMap(limit)
  }

  /** The token was answered a success. */
  learnAccepted(token: string, endedAt: number, seenAt: number): void {
    this.accepted.set(token, { endedAt, seenAt })
  }

  lastAccepted(token: string): { endedAt: number; seenAt: number } | undefined {
    return this.accepted.get(token)
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
