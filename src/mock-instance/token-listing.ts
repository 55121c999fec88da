import type { UserStore } from '../domain/user-store.js'

/** A token and whom it authenticates: what `GET /__mock/tokens` and `mock.tokens()` list. */
export interface TokenListing {
  token: string
  userId: string
  name: string
  email: string
  role: string
  status: string
  organizationId: string
}

export function listTokens(store: UserStore): TokenListing[] {
  return store.tokens().map(({ token, user }) => ({
    token,
    userId: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    organizationId: user.organizationId,
  }))
}
