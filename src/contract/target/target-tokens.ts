import type { Target } from './target.js'

/**
 * Every secret of a target: its actors', inactive users' and disposable users' tokens, its webhook secret and,
 * when it subscribes through the mock's control routes, the control token: what reports mask wherever a server
 * may have echoed one (text/redact-secrets.ts).
 *
 * @example
 * listTargetTokens({ baseUrl, actors: { owner: { token: 'owner-token' } }, disposable: [] }) // ['owner-token']
 */
export function listTargetTokens(target: Target): string[] {
  const holders = [...Object.values(target.actors), ...Object.values(target.inactive ?? {}), ...target.disposable]
  const tokens = holders.map((holder) => holder?.token ?? '')
  // The webhook receiver's secret is masked like a token: it signs what the receiver trusts; the control
  // token opens the mock's control routes.
  if (!target.webhooks) return tokens
  const { secret, controlToken } = target.webhooks
  return controlToken === undefined ? [...tokens, secret] : [...tokens, secret, controlToken]
}
