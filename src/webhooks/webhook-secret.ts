import { AppError } from '../errors.js'

/**
 * A Standard Webhooks secret: `whsec_` + base64 of 24 random bytes (the Web Crypto API: the mock
 * instance runs in browsers too).
 */
export function generateWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  return `whsec_${btoa(String.fromCharCode(...bytes))}`
}

/**
 * A secret the signing library takes, or an AppError saying what one looks like. The pattern is the whole
 * test: the library decodes the part after `whsec_` as base64 and refuses only characters outside base64's,
 * more than two `=` or fewer than four characters, which the pattern already excludes. So the library
 * (loaded on the first delivery) is not needed to check a secret at start.
 */
export function checkWebhookSecret(secret: string, source = 'The webhook secret'): string {
  if (!/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(secret)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${source} must be whsec_ followed by base64 of at least 12 bytes, such as ${generateWebhookSecret()} (or leave it out: the mock makes one).`,
    )
  }
  return secret
}
