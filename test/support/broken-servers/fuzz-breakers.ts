import { rewriteJson, rewriteRequest, wrapStore, type MockInternals } from './break-helpers.js'

/**
 * Broken implementations that `users-api-kit fuzz` must catch, each on the Schemathesis check named in
 * `caughtBy`: the mock with one thing broken, as a real backend might be.
 */
export interface FuzzBreaker {
  name: string
  breaks: string
  /** The Schemathesis check that must report it. */
  caughtBy: string
  /** `--max-examples` that catches it every time (a chain of calls needs more than a single call). */
  maxExamples: number
  apply(internals: MockInternals): void
}

export const FUZZ_BREAKERS: FuzzBreaker[] = [
  {
    name: 'answers-500-to-a-malformed-query',
    breaks: 'CONTRACT §4: a page that is not an integer is a 400, never a 500',
    caughtBy: 'not_a_server_error',
    maxExamples: 10,
    apply(internals) {
      // An unguarded parseInt before validation, the classic: a non-numeric page crashes the handler.
      rewriteRequest(internals, (request) => {
        if (/[?&]page=[^&]*[^0-9&]/.test(request.url)) throw new TypeError('Cannot read page of NaN')
        return request
      })
    },
  },
  {
    name: 'answers-a-role-the-schema-does-not-know',
    breaks: 'CONTRACT §1: role is one of the four roles',
    caughtBy: 'response_schema_conformance',
    maxExamples: 10,
    apply(internals) {
      rewriteJson(internals, (body) => {
        const data = body.data
        if (data && typeof data === 'object' && !Array.isArray(data))
          (data as Record<string, unknown>).role = 'SUPERUSER'
      })
    },
  },
  {
    name: 'answers-204-but-keeps-deleted-users',
    breaks: 'CONTRACT §4: after a DELETE, GET of that id is a 404',
    caughtBy: 'use_after_free',
    // DELETE, then GET of the same id through the link GetDeletedUser: at 10 examples the stateful
    // phase took that path in 3 runs of 5, at 30 in 5 of 5.
    maxExamples: 40,
    apply({ state }) {
      // Checks that the user exists, answers 204, deletes nothing: found only by chaining calls (stateful).
      wrapStore(state, 'deleteUser', (_original, store) => (caller, id) => void store.getUser(caller, id))
    },
  },
]
