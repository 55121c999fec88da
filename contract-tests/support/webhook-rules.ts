import { suite } from './suite.js'

// CONTRACT §6: the rules the webhook checks hold a backend to, as their failures cite them, and how long
// they wait for what a backend sends.

const settings = suite.target.webhooks

/** How long an event may take to arrive (the target's deliverWithinSeconds). */
export const DELIVERY_MS = (settings ? (settings.deliverWithinSeconds ?? 10) : 10) * 1000
/** How long each retry of a refused delivery may take (the target may say more). */
export const RETRY_MS = (settings ? (settings.retryWithinSeconds ?? 30) : 30) * 1000
/** After the last expected event, how long a stray one gets to arrive. */
export const GRACE_MS = 300
/** A delivery without a 2xx answer is retried at least this many times. */
export const RETRIES = 3

export const SENT =
  'A PATCH that changed a field sends user.updated; a DELETE that answered 204 sends user.deleted (docs/contract.md §6)'
export const NOTHING = 'A PATCH that changes nothing and any refused request send no event (docs/contract.md §6)'
export const VISIBLE = 'An event is sent after the change is visible through the API (docs/contract.md §6)'
export const CONTENT =
  'The payload holds the user after the change, the fields changed and the actor (docs/contract.md §6)'
export const RETRIED =
  'A delivery without a 2xx answer is retried, at least 3 times, with the same webhook-id (docs/contract.md §6)'
export const ORDERED =
  "One user's events are sent in the order of the changes, one webhook-id per event (docs/contract.md §6)"
export const NEVER_WAITS = "Delivering never slows down or alters the API's own answer (docs/contract.md §6)"
export const ORGANIZATION =
  "An event goes to the endpoints subscribed for the user's organization only (docs/contract.md §6)"
export const SIGNED_ONLY =
  "Every delivery an endpoint gets verifies with its whsec_ secret: one that does not is no event of the backend's (docs/contract.md §6)"
