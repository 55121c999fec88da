/** CONTRACT §1: the four roles of a user. The contract suite and the proxy read them from here. */
export const ROLES = ['CLIENT_OWNER', 'CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER'] as const
export type Role = (typeof ROLES)[number]

/** The role each member actor of a target has (src/contract/target/target.ts); the outsider is another organization's. */
export const ACTOR_ROLES = {
  owner: 'CLIENT_OWNER',
  admin: 'CLIENT_ADMIN',
  viewer: 'CLIENT_VIEWER',
  bot: 'BOT_USER',
} as const satisfies Record<string, Role>

/** Whether a value is one of the four roles. */
export function isRole(value: unknown): value is Role {
  return (ROLES as readonly unknown[]).includes(value)
}
