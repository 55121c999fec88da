import type { Role, User } from '../domain/user.js'
import type { UserStore } from '../domain/user-store.js'
import { AppError } from '../errors.js'
import { DISPOSABLE_USERS_NEEDED } from '../target/disposable-slots.js'
import { ACTOR_ROLES, type Target, type WebhookReceiverSettings } from '../target/target-format.js'
import { generateWebhookSecret } from '../webhooks/webhook-secret.js'
import { STATE_LIMITS } from './state-limits.js'

/**
 * A target of this mock, in the contract suite's format (target-format.ts). Its webhook receiver listens on
 * a free loopback port, with a fresh secret, and subscribes itself through the mock's POST /__mock/webhooks
 * (what no other backend offers: theirs are subscribed beforehand).
 */
export interface MockTarget extends Target {
  webhooks: WebhookReceiverSettings
}

/** Disposable users a target gets by default: what the contract suite shares out, and one to spare. */
export const DEFAULT_DISPOSABLE_USERS = DISPOSABLE_USERS_NEEDED + 1

/** How the mock tells its disposable users from others (the suite never relies on it). */
const DISPOSABLE_EMAIL_DOMAIN = '@contract.example'

/**
 * A target for this mock: the first organization with an active owner, one active user of each role
 * there, an active user of another organization, an INVITED and a SUSPENDED user of the first where it
 * has them, and `count` fresh CLIENT_VIEWERs the suite may change and delete, created for the purpose.
 */
export function createTarget(
  store: UserStore,
  baseUrl: string,
  count = DEFAULT_DISPOSABLE_USERS,
  now = new Date(),
): MockTarget {
  const holders = store.tokenHolders()
  const alive = holders.filter(({ user }) => user.email.endsWith(DISPOSABLE_EMAIL_DOMAIN)).length
  if (alive + count > STATE_LIMITS.disposableUsers) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The mock holds ${alive} disposable users, and takes at most ${STATE_LIMITS.disposableUsers}: delete some, or POST /__mock/reset.`,
    )
  }
  const entries = holders.filter(({ user }) => user.status === 'ACTIVE')
  const home = entries.find(({ user }) => user.role === 'CLIENT_OWNER')?.user.organizationId
  if (home === undefined) {
    throw new AppError('VALIDATION_FAILED', 'The mock has no ACTIVE CLIENT_OWNER with a token: no target can be built.')
  }
  const actors: MockTarget['actors'] = {}
  for (const [actor, role] of Object.entries(ACTOR_ROLES) as Array<[keyof typeof ACTOR_ROLES, Role]>) {
    const entry = entries.find(({ user }) => user.organizationId === home && user.role === role)
    if (entry) actors[actor] = { token: entry.token }
  }
  const outsider = entries.find(({ user }) => user.organizationId !== home)
  if (outsider) actors.outsider = { token: outsider.token }
  const inactive: NonNullable<MockTarget['inactive']> = {}
  for (const [name, status] of [
    ['invited', 'INVITED'],
    ['suspended', 'SUSPENDED'],
  ] as const) {
    const entry = holders.find(({ user }) => user.organizationId === home && user.status === status)
    if (entry) inactive[name] = { token: entry.token }
  }
  const disposable = Array.from({ length: count }, () => addDisposableUser(store, home, now))
  return {
    baseUrl,
    actors,
    ...(Object.keys(inactive).length > 0 ? { inactive } : {}),
    disposable,
    // The mock delivers within milliseconds and retries first after 500 ms by default: a check that
    // waits for a missing event or retry need not wait as long as for a real backend.
    webhooks: {
      listen: '127.0.0.1:0',
      secret: generateWebhookSecret(),
      autoSubscribe: true,
      retryWithinSeconds: 3,
      deliverWithinSeconds: 3,
    },
  }
}

function addDisposableUser(store: UserStore, organizationId: string, now: Date): { id: string; token: string } {
  const suffix = randomBase32(20)
  const token = `tok_${randomBase32(24)}`
  const createdAt = now.toISOString()
  const user: User = {
    id: `usr_${suffix}`,
    email: `disposable.${suffix}${DISPOSABLE_EMAIL_DOMAIN}`,
    name: `Disposable ${suffix.slice(0, 6)}`,
    role: 'CLIENT_VIEWER',
    organizationId,
    status: 'ACTIVE',
    createdAt,
    updatedAt: createdAt,
  }
  store.addUser({ ...user, token })
  return { id: user.id, token }
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

function randomBase32(length: number): string {
  // The Web Crypto API: the mock instance runs in browsers and workers as well as Node.
  return [...crypto.getRandomValues(new Uint8Array(length))].map((byte) => BASE32[byte % 32]).join('')
}
