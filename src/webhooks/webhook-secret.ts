import { Webhook } from 'standardwebhooks'
import { AppError } from '../errors.js'

/**
 * A Standard Webhooks secret: `whsec_` + base64 of 24 random bytes (the Web Crypto API: the mock
 * instance runs in browsers too).
 */
export function generateWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  return `whsec_${btoa(String.fromCharCode(...bytes))}`
}

/** A secret the library can sign with, or an AppError saying what one looks like. */
export function checkWebhookSecret(secret: string, source = 'The webhook secret'): string {
  const valid = /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(secret) && canSignWith(secret)
  if (!valid) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${source} must be whsec_ followed by base64 of at least 12 bytes, such as ${generateWebhookSecret()} (or leave it out: the mock makes one).`,
    )
  }
  return secret
}

function canSignWith(secret: string): boolean {
  try {
    new Webhook(secret)
    return true
  } catch {
    return false
  }
}
