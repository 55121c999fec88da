/** The User resource of CONTRACT §1, and the values its fields take. */
export const ROLES = ['CLIENT_OWNER', 'CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER'] as const
export type Role = (typeof ROLES)[number]

export const STATUSES = ['ACTIVE', 'INVITED', 'SUSPENDED'] as const
export type Status = (typeof STATUSES)[number]

export interface User {
  id: string
  email: string
  name: string
  role: Role
  organizationId: string
  status: Status
  /** RFC 3339, UTC, millisecond precision. */
  createdAt: string
  updatedAt: string
}

export interface Organization {
  id: string
  name: string
}

/** A PATCH body once validated against the document: at least one key, no other. */
export interface UserPatch {
  name?: string
  role?: Role
  status?: 'ACTIVE' | 'SUSPENDED'
}

export interface ListQuery {
  page: number
  limit: number
  role?: Role
  search?: string
}

export interface PageMeta {
  page: number
  limit: number
  total: number
  totalPages: number
}

export interface UserPage {
  data: User[]
  meta: PageMeta
}
