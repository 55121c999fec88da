import type { User } from '../../../../src/domain/user.js'
import { OWNER, acceptTokensOf, rewriteRequest, rewriteResponse, wrapStore } from '../break-helpers.js'
import type { Mutant } from './mutant.js'

/** Broken implementations of §2 authentication: which tokens are a 401, and how the 401 says so. */
export const AUTHENTICATION_MUTANTS: Mutant[] = [
  {
    name: 'accepts-a-missing-authorization-header',
    breaks: '§2 a missing Authorization header is a 401',
    caughtBy: /missing Authorization header/i,
    apply(internals) {
      rewriteRequest(internals, (request) => {
        if (request.url.startsWith('/api') && !request.headers.authorization) {
          const { state } = internals
          const owner = state.store.tokens().find(({ user }) => user.role === OWNER && user.status === 'ACTIVE')
          if (owner) return { ...request, headers: { ...request.headers, authorization: `Bearer ${owner.token}` } }
        }
        return request
      })
    },
  },
  {
    name: 'drops-www-authenticate',
    breaks: '§2 a 401 carries WWW-Authenticate: Bearer',
    caughtBy: /www-authenticate/i,
    apply(internals) {
      rewriteResponse(internals, (response) => {
        delete response.headers['www-authenticate']
      })
    },
  },
  {
    name: 'says-invalid-token-without-a-token',
    breaks: '§2 error="invalid_token" only when a non-empty Bearer token was refused',
    caughtBy: /invalid_token/i,
    apply(internals) {
      rewriteResponse(internals, (response) => {
        if (response.status === 401) response.headers['www-authenticate'] = 'Bearer error="invalid_token"'
      })
    },
  },
  {
    name: 'lets-suspended-users-in',
    breaks: "§2 a SUSPENDED user's token is a 401",
    caughtBy: /suspend/i,
    apply({ state }) {
      acceptTokensOf(state, (user) => user.status === 'SUSPENDED')
    },
  },
  {
    name: 'keeps-deleted-users-tokens',
    breaks: '§2/§4 a deleted user loses access at once',
    caughtBy: /token/i,
    apply({ state }) {
      const deleted = new Map<string, User>()
      wrapStore(state, 'deleteUser', (original, store) => (caller, id) => {
        const entry = store.tokens().find(({ user }) => user.id === id)
        original(caller, id)
        if (entry) deleted.set(entry.token, entry.user)
      })
      wrapStore(state, 'authenticate', (original) => (token) => deleted.get(token) ?? original(token))
    },
  },
  {
    name: 'lets-suspended-admins-and-bots-in',
    breaks: "§2 the token of a SUSPENDED user is a 401, whatever the user's role",
    caughtBy: /suspended (CLIENT_ADMIN|BOT_USER) is refused/i,
    apply({ state }) {
      acceptTokensOf(
        state,
        (user) => user.status === 'SUSPENDED' && (user.role === 'CLIENT_ADMIN' || user.role === 'BOT_USER'),
      )
    },
  },
  {
    name: 'lets-invited-users-in',
    breaks: '§2 the token of an INVITED user is a 401',
    caughtBy: /token of an INVITED user/i,
    apply({ state }) {
      acceptTokensOf(state, (user) => user.status === 'INVITED')
    },
  },
  {
    name: 'reads-the-scheme-case-sensitively',
    breaks: '§2 the scheme matches case-insensitively: bearer is Bearer',
    caughtBy: /bearer is Bearer/,
    apply(internals) {
      rewriteRequest(internals, (request) => {
        const authorization = request.headers.authorization
        return authorization !== undefined && /^bearer /i.test(authorization) && !authorization.startsWith('Bearer ')
          ? { ...request, headers: { ...request.headers, authorization: `Basic ${authorization.slice(7)}` } }
          : request
      })
    },
  },
  {
    name: 'reads-the-token-after-one-space-only',
    breaks: '§2 spaces and tabs around the token are ignored',
    caughtBy: /Spaces and tabs around the token are ignored/,
    apply(internals) {
      // `authorization.slice('Bearer '.length)`: the white space beyond one space becomes part of the token.
      rewriteRequest(internals, (request) => {
        const authorization = request.headers.authorization
        return authorization !== undefined && /^Bearer [ \t]/.test(authorization)
          ? { ...request, headers: { ...request.headers, authorization: `Bearer x${authorization.slice(7)}` } }
          : request
      })
    },
  },
]
