import type { MockState } from '../domain/mock-state.js'
import { usersPerOrganization } from '../server/start-mock.js'
import type { MockArgs } from './parse-mock-args.js'

interface BannerInput {
  url: string
  options: MockArgs
  /** The state the mock starts from (the seed, or what `--state-file` held). */
  current: MockState
  loadedStateFile: boolean
  /** The secret the events are signed with (printed unless the mock is shared). */
  webhookSecret: string
}

/**
 * What a developer needs to start: where the API and docs are, a token, a ready-to-paste curl. With a
 * control token the mock is shared, and its output may end up in a team's logs: no token is printed.
 */
export function formatBanner({ url, options, current, loadedStateFile, webhookSecret }: BannerInput): string {
  const withTokens = current.users.filter((user) => user.token !== undefined)
  const owner = withTokens.find((user) => user.role === 'CLIENT_OWNER' && user.status === 'ACTIVE')
  const named = withTokens.map((user) => user.token ?? '').filter((token) => !token.startsWith('tok_'))
  const fakes = usersPerOrganization(options)
  const origin = loadedStateFile
    ? `loaded from ${options.stateFile}`
    : options.fixtures !== undefined
      ? `${options.fixtures}${fakes > 0 ? `, seed ${options.seed}, ${fakes} fake users per organization` : ''}`
      : `seed ${options.seed}, ${fakes} fake users per organization`
  const shared = options.controlToken !== undefined
  const lines = [
    `users-api-kit mock: ${current.organizations.length} organizations, ${current.users.length} users (${origin})`,
    '',
    `  API      ${url}/api/users`,
    `  Docs     ${url}/docs`,
    shared
      ? `  Tokens   curl -H 'Authorization: Bearer <control token>' ${url}/__mock/tokens`
      : `  Tokens   ${url}/__mock/tokens${named.length ? `  (${named.slice(0, 6).join(', ')}, …)` : ''}`,
  ]
  if (options.stateFile !== undefined) lines.push(`  State    ${options.stateFile} (saved after every change)`)
  lines.push(`  Events   ${url}/__mock/events`)
  for (const endpoint of options.webhooks?.endpoints ?? []) lines.push(`  Webhook  ${endpoint.url}`)
  if (!shared) lines.push(`  Signed   with ${webhookSecret} (Standard Webhooks)`)
  if (owner && !shared) lines.push('', `  Try:  curl -H 'Authorization: Bearer ${owner.token}' ${url}/api/users/me`)
  lines.push('', 'Ctrl-C stops it.')
  return lines.join('\n')
}
