import type { Role } from '../../spec/roles.js'

/** A user as the API answers it (CONTRACT §1); more fields may come and are ignored. */
export interface ApiUser {
  id: string
  email: string
  name: string
  role: Role
  organizationId: string
  status: string
  createdAt: string
  updatedAt: string
}

/** `meta` of a list (docs/contract.md §4). */
export interface PageMeta {
  page: number
  limit: number
  total: number
  totalPages: number
}

/**
 * CONTRACT §4: whether a search term is in the user's name or email, both sides lower-cased.
 *
 * @example
 * holdsTerm({ name: 'Ada Lovelace', email: 'ada@acme.test', … }, 'LOVE') // true
 */
export function holdsTerm(user: Pick<ApiUser, 'name' | 'email'>, term: string): boolean {
  const needle = term.toLowerCase()
  return user.name.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle)
}
