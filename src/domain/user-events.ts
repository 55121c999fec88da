import type { components } from '../spec/users-api.js'

/**
 * The events of CONTRACT §6 as the domain emits them, in the payload shape the document declares under
 * `webhooks` (types generated from it). The store emits one after a change that is already applied, so
 * that whoever delivers it never runs before the change is visible.
 */
export type UserUpdatedEvent = components['schemas']['UserUpdatedEvent']
export type UserDeletedEvent = components['schemas']['UserDeletedEvent']
export type UserEvent = UserUpdatedEvent | UserDeletedEvent
export type ChangedField = UserUpdatedEvent['data']['changes'][number]

/** Told of every event, synchronously, inside the change: it must only queue (never throw, never wait). */
export type UserEventListener = (event: UserEvent) => void
