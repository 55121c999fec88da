import { openDatabase } from '../src/database/database.js'
import { migrate } from '../src/database/migrate.js'

// npm run migrate: the migrations, against DATABASE_URL, without starting the service (a deploy step;
// npm start applies them too). PGlite in memory has nothing to migrate ahead of a start.

const databaseUrl = process.env['DATABASE_URL']
if (!databaseUrl) {
  console.error('migrate: set DATABASE_URL (postgres://user@host:5432/db); PGlite is migrated by npm start.')
  process.exit(2)
}
const db = await openDatabase({ databaseUrl })
try {
  const applied = await migrate(db)
  console.log(applied.length > 0 ? `migrate: applied ${applied.join(', ')}` : 'migrate: nothing to apply')
} finally {
  await db.close()
}
