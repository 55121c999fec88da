import { existsSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'

// npm run seed:contract -- --base-url URL --target FILE
//
// Provisioning for users-api-kit's verify and gate: fresh organizations and users through the service's
// admin routes, and the target file naming them (schemas/target.schema.json of the kit). Every run
// creates new ones: a run of the suite deletes some of its disposable users and renames others.

const USAGE = `Usage: npm run seed:contract -- --base-url URL --target FILE [options]

  --base-url URL          the running service (http://127.0.0.1:3000)
  --target FILE           where to write the target file (tokens inside: keep it out of git)
  --disposable N          disposable users (default 14: what \`users-api-kit gate --help\` names)
  --webhook-listen H:P    where the suite's webhook receiver will listen (default 127.0.0.1:9999)
  --webhook-url URL       the URL the service delivers to (default http://H:P/ of --webhook-listen)
  --admin-token T         the service's admin token (else ADMIN_TOKEN, else the file .admin-token)`

const { values: args } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    target: { type: 'string' },
    disposable: { type: 'string', default: '14' },
    'webhook-listen': { type: 'string', default: '127.0.0.1:9999' },
    'webhook-url': { type: 'string' },
    'admin-token': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
})
if (args.help) {
  console.log(USAGE)
  process.exit(0)
}
const baseUrl = args['base-url']?.replace(/\/+$/, '')
const targetFile = args.target
const disposableCount = Number(args.disposable)
if (!baseUrl || !targetFile || !Number.isInteger(disposableCount) || disposableCount < 0) {
  console.error(USAGE)
  process.exit(2)
}
const listen = args['webhook-listen'] ?? '127.0.0.1:9999'
const webhookUrl = args['webhook-url'] ?? `http://${listen.replace(/^0\.0\.0\.0:/, '127.0.0.1:')}/`
const adminToken = args['admin-token'] ?? process.env['ADMIN_TOKEN'] ?? readAdminTokenFile()

type Role = 'CLIENT_OWNER' | 'CLIENT_ADMIN' | 'CLIENT_VIEWER' | 'BOT_USER'
type Status = 'ACTIVE' | 'INVITED' | 'SUSPENDED'
interface NewUser {
  name: string
  email: string
  role: Role
  status: Status
}
interface Created {
  id: string
  token: string
}

// A run's mark in every email: emails are unique in the whole service, and every run makes new users.
const run = randomBytes(5).toString('hex')
const email = (local: string, domain: string) => `${local}.${run}@${domain}`
const member = (name: string, local: string, role: Role, status: Status = 'ACTIVE', domain = 'acme.example') => ({
  name,
  email: email(local, domain),
  role,
  status,
})

const acme = await admin<{ id: string }>('/admin/organizations', { name: `Acme ${run}` })
const globex = await admin<{ id: string }>('/admin/organizations', { name: `Globex ${run}` })

// Each request's users share one createdAt; the list then orders them by id alone, by code point.
const [owner, adminUser, viewer, bot, invited, suspended] = await createUsers(acme.id, [
  member('Olga Owner', 'Olga.Owner', 'CLIENT_OWNER'),
  member('Adam Admin', 'adam.admin', 'CLIENT_ADMIN'),
  member('Vera Viewer', 'vera.viewer', 'CLIENT_VIEWER'),
  member('Build Bot', 'build.bot', 'BOT_USER'),
  member('Ines Invited', 'ines.invited', 'CLIENT_VIEWER', 'INVITED'),
  member('Sam Suspended', 'sam.suspended', 'CLIENT_VIEWER', 'SUSPENDED'),
])
// Colleagues whose names lower-case beyond ASCII (accents, ß, Turkish İ and ı, a Greek final sigma, a
// character outside the BMP) or hold LIKE's own characters (% _ \): the suite searches with terms from
// every user's name and email, so each of these is a search the database must get right.
await createUsers(acme.id, [
  member('Zoë Ångström-Ølund', 'zoe.angstrom', 'CLIENT_VIEWER'),
  member('JÜRGEN STRAẞE', 'juergen.strasse', 'CLIENT_ADMIN'),
  member('Jürgen Straße', 'jurgen.strasse', 'CLIENT_VIEWER', 'SUSPENDED'),
  member('İlkay Yıldız', 'ilkay.yildiz', 'CLIENT_VIEWER'),
  member('ΟΔΥΣΣΕΑΣ Παπαδόπουλος', 'odysseas', 'CLIENT_VIEWER', 'INVITED'),
  member('Σοφία Αλεξίου', 'sofia.alexiou', 'BOT_USER'),
  member('Élodie Ørsted', 'Elodie.Orsted', 'CLIENT_ADMIN'),
  member('Ada 🚀 Lovelace', 'ada.lovelace', 'CLIENT_VIEWER'),
  member('100% Uptime Bot', 'uptime_bot', 'BOT_USER'),
  member('snake_case Sally', 'sally_snake', 'CLIENT_VIEWER'),
  member('Back\\Slash Ben', 'ben.backslash', 'CLIENT_VIEWER'),
  member('Otto Second-Owner', 'otto.owner', 'CLIENT_OWNER'),
])
const disposable = await createUsers(
  acme.id,
  Array.from({ length: disposableCount }, (_, index) =>
    member(`Disposable ${String(index + 1).padStart(2, '0')}`, `disposable${index + 1}`, 'CLIENT_VIEWER'),
  ),
)
// Another organization: the outsider, and namesakes of Acme's users that no Acme search may list.
const [outsider] = await createUsers(globex.id, [
  member('Oscar Outsider', 'oscar.outsider', 'CLIENT_OWNER', 'ACTIVE', 'globex.example'),
  member('Zoë Ångström', 'zoe.angstrom', 'CLIENT_VIEWER', 'ACTIVE', 'globex.example'),
  member('Disposable Lookalike', 'disposable.lookalike', 'CLIENT_VIEWER', 'ACTIVE', 'globex.example'),
])
// The suite's receiver, subscribed for Acme alone: an event of Globex reaching it fails a check.
const endpoint = await admin<{ secret: string }>(`/admin/organizations/${acme.id}/webhook-endpoints`, {
  url: webhookUrl,
})

const target = {
  baseUrl,
  actors: {
    owner: tokenOf(owner),
    admin: tokenOf(adminUser),
    viewer: tokenOf(viewer),
    bot: tokenOf(bot),
    outsider: tokenOf(outsider),
  },
  inactive: { invited: tokenOf(invited), suspended: tokenOf(suspended) },
  disposable: disposable.map(({ id, token }) => ({ id, token })),
  webhooks: {
    listen,
    secret: endpoint.secret,
    ...(args['webhook-url'] ? { url: webhookUrl } : {}),
  },
}
// Tokens inside: readable by this user alone.
await writeFile(targetFile, `${JSON.stringify(target, null, 2)}\n`, { mode: 0o600 })
console.log(
  `seed-contract: wrote ${targetFile}: organization ${acme.id} (owner, admin, viewer, bot, an INVITED and a SUSPENDED user, 12 colleagues, ${disposable.length} disposable users), outsider in ${globex.id}, webhooks to ${webhookUrl}`,
)

function tokenOf(user: Created | undefined): { token: string } {
  if (!user) throw new Error('the service created fewer users than asked')
  return { token: user.token }
}

async function createUsers(organizationId: string, users: NewUser[]): Promise<Created[]> {
  if (users.length === 0) return []
  const answer = await admin<{ users: Created[] }>(`/admin/organizations/${organizationId}/users`, { users })
  return answer.users
}

async function admin<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': adminToken },
    body: JSON.stringify(body),
  }).catch((error: unknown) => {
    console.error(`seed-contract: ${baseUrl} does not answer (${String(error)}): start the service first (npm start).`)
    process.exit(2)
  })
  const text = await response.text()
  if (response.status !== 201) {
    console.error(`seed-contract: POST ${path} answered ${response.status}: ${text}`)
    process.exit(1)
  }
  return JSON.parse(text) as T
}

function readAdminTokenFile(): string {
  if (existsSync('.admin-token')) return readFileSync('.admin-token', 'utf8').trim()
  console.error('seed-contract: no admin token: pass --admin-token, set ADMIN_TOKEN, or start the service here first.')
  process.exit(2)
}
