import { escapeControlCharacters } from '../text/escape-control-characters.js'
import { shellQuote } from '../text/shell-quote.js'
import type { Role, Status } from '../domain/user.js'
import { usersPerOrganization } from '../server/start-mock.js'
import type { MockArgs } from './parse-mock-args.js'

interface BannerInput {
  url: string
  options: MockArgs
  /** The state the mock starts from (the seed, or what `--state-file` held). */
  current: BannerState
  loadedStateFile: boolean
  /** The secret the events are signed with (printed unless the mock is shared). */
  webhookSecret: string
}

/**
 * What the banner tells of a state: counts and the users who hold a token, in the state's own order. Not
 * the state itself: exporting it in list order builds every organization's member index, ~15 ms of the
 * mock's cold start before it answers its first request.
 */
export interface BannerState {
  organizations: number
  users: number
  tokenHolders: ReadonlyArray<{ token: string; role: Role; status: Status }>
}

/**
 * A token the `Try:` line may hold: RFC 6750's token characters, which no shell acts on. A state file
 * is anyone's who could reach `PUT /__mock/state`: an owner's token once broke out of the line's quotes,
 * and pasting the line ran the command planted in it.
 */
const PASTABLE_TOKEN = /^[A-Za-z0-9._~+/=-]{1,200}$/

/**
 * What a developer needs to start: where the API and docs are, a token, a ready-to-paste curl. With a
 * control token the mock is shared, and its output may end up in a team's logs: no token is printed.
 * Everything that comes from the state or the fixtures is printed with its control characters written
 * out; a secret given to the mock (`--webhook-secret`, credentials in a `--webhook` URL) is masked unless
 * `--show-secrets`, since banners end up in CI logs. A secret the mock made is printed: the banner is
 * where its user learns it, and it lives as long as the process.
 */
export function formatBanner({ url, options, current, loadedStateFile, webhookSecret }: BannerInput): string {
  const owner = current.tokenHolders.find(
    (holder) => holder.role === 'CLIENT_OWNER' && holder.status === 'ACTIVE' && PASTABLE_TOKEN.test(holder.token),
  )
  const named = current.tokenHolders.map((holder) => holder.token).filter((token) => !token.startsWith('tok_'))
  const fakes = usersPerOrganization(options)
  const origin = loadedStateFile
    ? `loaded from ${options.stateFile}`
    : options.fixtures !== undefined
      ? `${options.fixtures}${fakes > 0 ? `, seed ${options.seed}, ${fakes} fake users per organization` : ''}`
      : `seed ${options.seed}, ${fakes} fake users per organization`
  const shared = options.controlToken !== undefined
  const shown = named.slice(0, 6).map((token) => escapeControlCharacters(token))
  const lines = [
    `users-api-kit mock: ${current.organizations} organizations, ${current.users} users (${escapeControlCharacters(origin)})`,
    '',
    `  API      ${url}/api/users`,
    `  Docs     ${url}/docs`,
    shared
      ? `  Tokens   curl -H 'Authorization: Bearer <control token>' ${url}/__mock/tokens`
      : `  Tokens   ${url}/__mock/tokens${shown.length ? `  (${shown.join(', ')}, …)` : ''}`,
  ]
  if (options.stateFile !== undefined) {
    lines.push(`  State    ${escapeControlCharacters(options.stateFile)} (saved after every change)`)
  }
  lines.push(`  Events   ${url}/__mock/events`)
  for (const endpoint of options.webhooks?.endpoints ?? []) {
    lines.push(`  Webhook  ${escapeControlCharacters(options.showSecrets ? endpoint.url : maskUrl(endpoint.url))}`)
  }
  if (!shared) lines.push(`  Signed   with ${describeSecret(webhookSecret, options)} (Standard Webhooks)`)
  if (owner && !shared) {
    const command = [
      'curl',
      '-H',
      shellQuote(`Authorization: Bearer ${owner.token}`),
      shellQuote(`${url}/api/users/me`),
    ]
    lines.push('', `  Try:  ${command.join(' ')}`)
  }
  lines.push('', 'Ctrl-C stops it.')
  return lines.join('\n')
}

/** The webhook secret as the banner prints it: a given one masked, with where it came from. */
function describeSecret(secret: string, options: MockArgs): string {
  if (options.webhookSecretSource === undefined || options.showSecrets) return secret
  return `whsec_*** from ${options.webhookSecretSource} (--show-secrets prints it)`
}

/** A URL with its credentials and query masked: `http://***@hooks.example/in?***`. */
function maskUrl(raw: string): string {
  const url = new URL(raw)
  const credentials = url.username !== '' || url.password !== '' ? '***@' : ''
  return `${url.protocol}//${credentials}${url.host}${url.pathname}${url.search === '' ? '' : '?***'}`
}
