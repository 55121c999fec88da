import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { buildApp } from './build-app.js'
import { openDatabase } from './database/database.js'
import { migrate } from './database/migrate.js'
import { startDeliveryWorker } from './webhooks/delivery-worker.js'

// npm start: migrate, start the webhook worker, serve. Settings come from the environment:
//   PORT (3000), HOST (127.0.0.1), DATABASE_URL (else PGlite), PGLITE_DIR (else in memory),
//   ADMIN_TOKEN (else a random one, written to .admin-token for scripts/seed-contract.ts), LOG (off).

const env = process.env
const port = Number(env['PORT'] ?? 3000)
const host = env['HOST'] ?? '127.0.0.1'
const log = (line: string) => console.error(`users-service: ${line}`)

const db = await openDatabase({
  ...(env['DATABASE_URL'] ? { databaseUrl: env['DATABASE_URL'] } : {}),
  ...(env['PGLITE_DIR'] ? { pgliteDir: env['PGLITE_DIR'] } : {}),
})
const applied = await migrate(db)
if (applied.length > 0) log(`applied migrations ${applied.join(', ')}`)
const worker = startDeliveryWorker({ db, log })
const adminToken = env['ADMIN_TOKEN'] || (await writeAdminToken())
const app = buildApp({ db, adminToken, onEventsCommitted: () => worker.wake(), log, logger: env['LOG'] === 'on' })
await app.listen({ port, host })
const address = app.server.address()
const url = `http://${host.includes(':') ? `[${host}]` : host}:${typeof address === 'object' && address ? address.port : port}`
console.log(`users-service: listening on ${url} (${db.describe()})`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    void (async () => {
      await app.close()
      await worker.stop()
      await db.close()
      process.exit(0)
    })()
  })
}

/** No ADMIN_TOKEN: a random one, readable by this user only, where the seed script looks for it. */
async function writeAdminToken(): Promise<string> {
  const token = randomBytes(24).toString('base64url')
  const file = resolve('.admin-token')
  await writeFile(file, `${token}\n`, { mode: 0o600 })
  log(`no ADMIN_TOKEN set: the admin token is in ${file}`)
  return token
}
