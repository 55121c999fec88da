import { describe } from 'vitest'
import { covers } from './support/covers.js'
import { expectUnauthenticated } from './support/expect-unauthenticated.js'
import { needActor, send, suite, test } from './support/suite.js'

// CONTRACT §2, core: the scheme is Bearer, the whole word. A scheme that merely ends in it or begins with
// it is another scheme: a 401 without error="invalid_token", whatever token follows.

describe.concurrent('the scheme is the whole word Bearer (docs/contract.md §2)', () => {
  for (const scheme of ['XBearer', 'Not-Bearer', 'Bearer-Token', 'Bearerx']) {
    test(`[core] Authorization: ${scheme} with a valid token is a 401`, covers('§2.other-scheme'), async (context) => {
      needActor(context, 'owner')
      const token = suite.target.actors.owner?.token ?? ''
      const exchange = await send({ as: null, path: '/api/users/me', headers: { authorization: `${scheme} ${token}` } })
      expectUnauthenticated(exchange, false, `Authorization: ${scheme} … is another scheme: 401 (docs/contract.md §2)`)
    })
  }
})
