import { createHash, randomBytes, randomInt } from 'node:crypto'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/**
 * `usr_4fZq…`: a prefix and 22 random base62 characters (131 bits). Upper and lower case mixed, so
 * ids order differently under a locale's collation (a < B) than by code point (B < a): the list's
 * order is the latter (docs/contract.md §4), and the SQL says so with COLLATE "C".
 */
export function newId(prefix: 'org' | 'usr' | 'whep' | 'msg'): string {
  let id = `${prefix}_`
  for (let index = 0; index < 22; index += 1) id += BASE62[randomInt(62)]
  return id
}

/** A bearer token, shown once to whoever created it; the database keeps only its hash. */
export function newToken(): string {
  return `usk_${randomBytes(32).toString('base64url')}`
}

/** SHA-256 of a token as sent: what api_tokens stores and authentication looks up. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest()
}

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** Whether a text can be an id this service issued: anything else names no user, without a query. */
export function isUserId(text: string): boolean {
  return /^usr_[0-9A-Za-z]{22}$/.test(text)
}
