import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { chown, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { freePort } from './free-port.js'
import { startGroup, stopGroup } from './process-groups.js'

// A PostgreSQL server of Debian's `postgresql` package, started by a test in a folder of its own on a
// free loopback port and stopped after: never left running. Debian keeps the server's binaries off
// PATH, under /usr/lib/postgresql/<version>/bin. The server refuses to run as root: as root, initdb and
// postgres run as the `postgres` user the package creates.

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and postgres, or undefined. */
export const POSTGRES_BIN = findPostgresBin()
/** Without the server the tests skip, visibly, on a developer's machine; in CI the run stops before them (scripts/prepare-tests.ts). */
export const SKIP_POSTGRES = POSTGRES_BIN === undefined && !process.env['CI']
/** Said in the title of a skipped suite. */
export const POSTGRES_SKIP_REASON = SKIP_POSTGRES
  ? ' (skipped: no PostgreSQL server under /usr/lib/postgresql/*/bin: sudo apt-get install -y postgresql)'
  : ''

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url: string
  /** How its default collation was chosen: a locale's, so that an ORDER BY without COLLATE "C" shows. */
  collation: string
  /** Runs SQL with psql and answers its unaligned output. */
  psql(sql: string): Promise<string>
  stop(): Promise<void>
}

/**
 * initdb into a temporary folder, then the server on a free port of 127.0.0.1 (no Unix socket outside
 * that folder, trust authentication), and a database `users`. The cluster's default collation is a
 * locale's, not C: en_US.UTF-8 (or another UTF-8 locale of `locale -a`), else ICU's en-US.
 *
 * @example
 * const server = await startPostgres()
 * try { … DATABASE_URL=server.url … } finally { await server.stop() }
 */
export async function startPostgres(): Promise<PostgresServer> {
  if (!POSTGRES_BIN) {
    throw new Error(
      'No PostgreSQL server under /usr/lib/postgresql/*/bin, and CI must run these tests: sudo apt-get install -y postgresql (npm test installs it as root).',
    )
  }
  const bin = POSTGRES_BIN
  const folder = await mkdtemp(join(tmpdir(), 'users-api-kit-postgres-'))
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
    await chown(folder, uid, gid)
  }
  const run = (file: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args]
  const data = join(folder, 'data')
  const { args: localeArgs, collation } = chooseCollation(bin)
  const [initdb, initdbArgs] = run(join(bin, 'initdb'), [
    '--pgdata',
    data,
    '--username',
    'postgres',
    '--auth',
    'trust',
    '--encoding',
    'UTF8',
    ...localeArgs,
  ])
  const initialized = await execa(initdb, initdbArgs, { reject: false, all: true })
  if (initialized.exitCode !== 0) throw new Error(`initdb failed:\n${initialized.all}`)

  const port = await freePort()
  const [postgres, postgresArgs] = run(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    folder,
    '-c',
    'listen_addresses=127.0.0.1',
    // A test's database: nothing to keep after a crash.
    '-c',
    'fsync=off',
  ])
  const server = startGroup(postgres, postgresArgs, { cwd: folder })
  const psql = async (sql: string, database = 'postgres') => {
    const result = await execa(
      join(bin, 'psql'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-Atc', sql],
      { reject: false, all: true },
    )
    if (result.exitCode !== 0) throw new Error(`psql: ${result.all}`)
    return result.stdout
  }
  const stop = async () => {
    await stopGroup(server.pid)
    await rm(folder, { recursive: true, force: true })
  }
  try {
    await waitUntilReady(bin, port, server.output)
    await psql('CREATE DATABASE users')
  } catch (error) {
    await stop()
    throw error
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/users`,
    collation,
    psql: (sql) => psql(sql, 'users'),
    stop,
  }
}

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and postgres, or undefined. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter(
      (version) =>
        existsSync(join(root, version, 'bin', 'initdb')) && existsSync(join(root, version, 'bin', 'postgres')),
    )
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin')
}

/** A UTF-8 locale of the system other than C, else ICU's en-US (PostgreSQL 15 and later). */
function chooseCollation(bin: string): { args: string[]; collation: string } {
  const locales = execFileSync('locale', ['-a'], { encoding: 'utf8' }).split('\n')
  const locale =
    locales.find((name) => /^en_US\.utf-?8$/i.test(name)) ??
    locales.find((name) => /\.utf-?8$/i.test(name) && !/^(C|POSIX)\./i.test(name))
  if (locale) return { args: ['--locale', locale], collation: `libc ${locale}` }
  const version = Number(/(\d+)\/bin$/.exec(bin)?.[1])
  if (version < 15)
    throw new Error(`PostgreSQL ${version} has no ICU default collation, and the system has no UTF-8 locale but C`)
  const ctype = locales.find((name) => /^C\.utf-?8$/i.test(name)) ?? 'C'
  return { args: ['--locale', ctype, '--locale-provider', 'icu', '--icu-locale', 'en-US'], collation: 'ICU en-US' }
}

async function waitUntilReady(bin: string, port: number, output: () => string): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const ready = await execa(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)], { reject: false })
    if (ready.exitCode === 0) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`PostgreSQL did not accept connections within 60 s:\n${output()}`)
}
