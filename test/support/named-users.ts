import { readFileSync } from 'node:fs'
import type { MockState, StoredUser } from '../../src/domain/mock-state.js'

const FIXTURES = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as MockState

/**
 * A named user of fixtures/default.json, found by token, so that the tests follow the fixture file.
 *
 * @example
 * namedUser('owner2-token').id // 'usr_acmeowner2…'
 */
export function namedUser(token: string): StoredUser {
  const user = FIXTURES.users.find((candidate) => candidate.token === token)
  if (!user) throw new Error(`fixtures/default.json has no user with the token ${token}.`)
  return user
}
