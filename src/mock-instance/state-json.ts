import { storedUser, type StoreSnapshot } from '../domain/user-store.js'

/**
 * Users written in one slice: a fraction of a millisecond of JSON.stringify. Four exports at once run a slice
 * each a turn, with their writes: with 25 a slice, no turn of the four exports of 100,000 users holds the event
 * loop for more than 7-16 ms of CPU (state-at-the-limits; at 100 a slice, before snapshots became cheap, 43-58).
 */
const USERS_PER_SLICE = 25

/** Organizations written in one slice: each is a few dozen bytes, as much text as a slice of users. */
const ORGANIZATIONS_PER_SLICE = 500

/**
 * A snapshot in the fixture format as JSON text, a slice at a time: together the very bytes of
 * `JSON.stringify(stateOfSnapshot(snapshot))`, never held whole, each user copied only for its slice. A
 * transport writes each slice and lets others in between (the whole text of 100,000 users and its
 * objects took 24 s and, four exports at once, 1.39 GiB, while a `/me` waited 28 s).
 *
 * @example
 * const text = [...stateJsonSlices(store.snapshot())].join('') // JSON.stringify(store.exportState())
 */
export function* stateJsonSlices(snapshot: StoreSnapshot): Generator<string, void> {
  const { organizations, members } = snapshot
  yield '{"organizations":['
  for (let offset = 0; offset < organizations.length; offset += ORGANIZATIONS_PER_SLICE) {
    const slice = organizations.slice(offset, offset + ORGANIZATIONS_PER_SLICE)
    yield `${offset === 0 ? '' : ','}${slice.map((organization) => JSON.stringify(organization)).join(',')}`
  }
  yield '],"users":['
  for (let offset = 0; offset < members.length; offset += USERS_PER_SLICE) {
    const texts = members.slice(offset, offset + USERS_PER_SLICE).map((member) => JSON.stringify(storedUser(member)))
    yield `${offset === 0 ? '' : ','}${texts.join(',')}`
  }
  yield ']}'
}
