import type { User, UserPage } from '../domain/user.js'

/** The JSON texts of the users API's answers: `{ "data": User }` and a page. */
export interface UserJson {
  envelope(user: User): string
  page(page: UserPage): string
}

/**
 * The answers' JSON, with a cache of each user's text, made once and reused until the user changes:
 * serializing was the largest per-request cost of a list page (bench: ~11 µs of ~45 µs over bare
 * Fastify). Every real change moves `updatedAt` forward (CONTRACT §4), so a text is current while its
 * `updatedAt` is. The texts are byte-identical to `JSON.stringify` of the same values. One per engine:
 * the cache lives and goes with the mock that made it.
 */
export function createUserJson(): UserJson {
  const texts = new WeakMap<User, { updatedAt: string; json: string }>()
  const userText = (user: User): string => {
    const cached = texts.get(user)
    if (cached && cached.updatedAt === user.updatedAt) return cached.json
    const json = JSON.stringify(user)
    texts.set(user, { updatedAt: user.updatedAt, json })
    return json
  }
  return {
    envelope: (user) => `{"data":${userText(user)}}`,
    page: (page) => `{"data":[${page.data.map(userText).join(',')}],"meta":${JSON.stringify(page.meta)}}`,
  }
}
