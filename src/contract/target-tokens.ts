import type { Target } from './target.js'

/**
 * Every token of a target, its actors' and its disposable users': what reports mask wherever a server
 * may have echoed one (redact-secrets.ts).
 *
 * @example
 * listTargetTokens({ baseUrl, actors: { owner: { token: 'owner-token' } }, disposable: [] }) // ['owner-token']
 */
export function listTargetTokens(target: Target): string[] {
  return [...Object.values(target.actors), ...target.disposable].map((holder) => holder?.token ?? '')
}
