import { requestHeaderOf } from '../client/exchange.js'
import { defineCheck } from './define-check.js'

/** RFC 7235 auth-param: `error="invalid_token"` or `error=invalid_token`, names case-insensitive. */
const INVALID_TOKEN = /(?:^|[\s,])error\s*=\s*(?:"invalid_token"|invalid_token)(?=$|[\s,])/i

export const wwwAuthenticateOn401 = defineCheck({
  name: 'www-authenticate-on-401',
  rule: 'A 401 carries WWW-Authenticate: Bearer, with error="invalid_token" exactly when a non-empty Bearer token was refused (docs/contract.md §2)',
  layer: 'core',
  covers: ['§2.www-authenticate', '§2.invalid-token'],
  verify({ request, response }) {
    if (response.status !== 401) return undefined
    const challenge = response.headers['www-authenticate']
    if (challenge === undefined)
      return 'Received: no WWW-Authenticate header\nDocumented: WWW-Authenticate: Bearer (RFC 6750)'
    // RFC 9110 §11.1: the scheme is case-insensitive.
    if (!/^bearer(?:\s|$)/i.test(challenge.trim())) {
      return `Received: WWW-Authenticate: ${challenge}\nDocumented: WWW-Authenticate: Bearer (RFC 6750)`
    }
    const tokenSent = sentBearerToken(requestHeaderOf(request, 'authorization'))
    const flagged = INVALID_TOKEN.test(challenge)
    if (tokenSent && !flagged) {
      return `Received: WWW-Authenticate: ${challenge} for a refused Bearer token\nDocumented: Bearer error="invalid_token"`
    }
    if (!tokenSent && flagged) {
      return `Received: WWW-Authenticate: ${challenge} for a request without a Bearer token\nDocumented: Bearer, without error="invalid_token"`
    }
    return undefined
  },
})

/** Whether `Authorization` carries the Bearer scheme with a non-empty token. */
function sentBearerToken(authorization: string | undefined): boolean {
  // docs/contract.md §2 (profile): spaces and tabs separate the scheme from the token.
  return /^bearer[ \t]+\S/i.test(authorization?.trim() ?? '')
}
