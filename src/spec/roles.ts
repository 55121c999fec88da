import type { components } from './users-api.js'

/** CONTRACT §1: the role of a user, as the document's `Role` names it. */
export type Role = components['schemas']['Role']

/** The four roles, in the document's order: the mock, the contract suite and the proxy read them here. */
export const ROLES = ['CLIENT_OWNER', 'CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER'] as const satisfies readonly Role[]

/** Whether a value is one of the roles. */
export function isRole(value: unknown): value is Role {
  return (ROLES as readonly unknown[]).includes(value)
}
