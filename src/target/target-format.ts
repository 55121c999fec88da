import type { Role } from '../spec/roles.js'

/**
 * The target file's format (schemas/target.schema.json says the same for JSON): what verify, fuzz, gate and
 * init-target read, and what the mock's POST /__mock/target writes. No node: module, so that the mock's
 * browser-side code can use it too.
 */

export const ACTOR_NAMES = ['owner', 'admin', 'viewer', 'bot', 'outsider'] as const
export type ActorName = (typeof ACTOR_NAMES)[number]

export interface Actor {
  token: string
}

/** A user the suite may change and delete: an ACTIVE CLIENT_VIEWER of the owner's organization. */
export interface DisposableUser {
  id: string
  token: string
}

/**
 * Tokens a backend must refuse although their users exist (docs/contract.md §2): an INVITED user's, for a
 * backend that issues one before the invitation is accepted, and a SUSPENDED user's. Read-only checks.
 */
export interface InactiveUsers {
  invited?: Actor
  suspended?: Actor
}

/** Who each inactive user is, in the words the kit tells people (the target schema's descriptions too). */
export const INACTIVE_DESCRIPTIONS: Record<keyof InactiveUsers, string> = {
  invited: "an INVITED user of the owner's organization",
  suspended: "a SUSPENDED user of the owner's organization",
}

/**
 * What the contract suite tests: a users API and tokens of its users. owner, admin, viewer and bot are
 * ACTIVE users of one organization; outsider an ACTIVE user of another. A missing actor skips the checks
 * that need it.
 */
export interface Target {
  /** http(s), without a trailing slash: the suite appends `/api/users`. */
  baseUrl: string
  actors: Partial<Record<ActorName, Actor>>
  /** Optional: without one, the check of its refusal is skipped as the target's choice. */
  inactive?: InactiveUsers
  disposable: DisposableUser[]
  /** The suite's webhook receiver; `false`: the backend sends none (a choice); absent: none configured. */
  webhooks?: WebhookReceiverSettings | false
}

/** Where the suite's receiver listens and how deliveries to it are signed (docs/contract.md §6). */
export interface WebhookReceiverSettings {
  /** `host:port`; port 0 takes a free one (only useful with autoSubscribe). */
  listen: string
  /** The URL the backend delivers to, when not `http://<listen>/`. */
  url?: string
  secret: string
  /** A users-api-kit mock: subscribe through POST /__mock/webhooks. */
  autoSubscribe?: boolean
  /** With autoSubscribe: the mock's control token, when it has one. */
  controlToken?: string
  retryWithinSeconds?: number
  deliverWithinSeconds?: number
}

/** The role each member actor has; the outsider is an ACTIVE user of another organization, of any role. */
export const ACTOR_ROLES = {
  owner: 'CLIENT_OWNER',
  admin: 'CLIENT_ADMIN',
  viewer: 'CLIENT_VIEWER',
  bot: 'BOT_USER',
} as const satisfies Record<Exclude<ActorName, 'outsider'>, Role>

/**
 * Who each actor is, in the words the kit tells people (gate's missing actors, init-target's template,
 * schemas/target.schema.json's descriptions, which a test holds to these).
 */
export const ACTOR_DESCRIPTIONS: Record<ActorName, string> = {
  owner: `an ACTIVE ${ACTOR_ROLES.owner}`,
  admin: `an ACTIVE ${ACTOR_ROLES.admin} of the owner's organization`,
  viewer: `an ACTIVE ${ACTOR_ROLES.viewer} of the owner's organization`,
  bot: `an ACTIVE ${ACTOR_ROLES.bot} of the owner's organization`,
  outsider: 'an ACTIVE user of another organization',
}
