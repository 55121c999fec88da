/**
 * The programmatic API of users-api-kit.
 *
 * @example
 * import { startMock } from 'users-api-kit'
 * const mock = await startMock({ seed: 7, users: 10 })
 * // mock.url, mock.tokens, mock.target, await mock.reset(), await mock.close()
 */
import './require-supported-node.js'
export { createMockApp, startMock, MOCK_DEFAULTS } from './server/start-mock.js'
export type { MockApp, MockOptions, RunningMock, StartMockOptions } from './server/start-mock.js'
export { createUsersApiMock } from './mock-instance/create-users-api-mock.js'
export type { UsersApiMock, UsersApiMockOptions } from './mock-instance/create-users-api-mock.js'
export type { EngineRequest, EngineResponse } from './engine/engine-request.js'
export type { MockTarget } from './mock-instance/create-target.js'
export type { TokenListing } from './mock-instance/token-listing.js'
export type { MockState, StoredUser } from './domain/mock-state.js'
export type { Organization, Role, Status, User } from './domain/user.js'
export { AppError, type ErrorCode } from './errors.js'
export { loadSpec, DEFAULT_SPEC_PATH } from './spec/load-spec.js'
export type { MockWebhooks, WebhookOptions } from './webhooks/mock-webhooks.js'
export type { DeliveryAttempt, DeliveryRecord, LoggedEvent } from './webhooks/event-log.js'
export type { WebhookEndpoint } from './webhooks/webhook-endpoints.js'
export type { UserDeletedEvent, UserEvent, UserUpdatedEvent } from './domain/user-events.js'
