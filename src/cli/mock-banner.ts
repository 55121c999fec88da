import type { MockState } from '../domain/mock-state.js'
import type { TokenEntry } from '../domain/user-store.js'
import type { MockArgs } from './parse-mock-args.js'

interface BannerInput {
  url: string
  options: MockArgs
  seed: MockState
  tokens: TokenEntry[]
}

/** What a developer needs to start: where the API and docs are, a token, a ready-to-paste curl. */
export function formatBanner({ url, options, seed, tokens }: BannerInput): string {
  const owner = tokens.find(({ user }) => user.role === 'CLIENT_OWNER' && user.status === 'ACTIVE')
  const named = tokens.filter(({ token }) => !token.startsWith('tok_')).map(({ token }) => token)
  const lines = [
    `users-api-kit mock: ${seed.organizations.length} organizations, ${seed.users.length} users (seed ${options.seed}, ${options.users} fake users per organization)`,
    '',
    `  API      ${url}/api/users`,
    `  Docs     ${url}/docs`,
    `  Tokens   ${url}/__mock/tokens${named.length ? `  (${named.slice(0, 6).join(', ')}, …)` : ''}`,
  ]
  if (owner) lines.push('', `  Try:  curl -H 'Authorization: Bearer ${owner.token}' ${url}/api/users/me`)
  lines.push('', 'Ctrl-C stops it.')
  return lines.join('\n')
}
