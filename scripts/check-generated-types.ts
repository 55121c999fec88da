// CI check: src/spec/users-api.ts must be what openapi-typescript makes of openapi/users.yaml today.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const fresh = join(mkdtempSync(join(tmpdir(), 'users-api-types-')), 'users-api.ts')
execFileSync('npx', ['openapi-typescript', 'openapi/users.yaml', '-o', fresh], { stdio: 'ignore' })
const format = (file: string): string =>
  execFileSync('npx', ['prettier', '--stdin-filepath', 'src/spec/users-api.ts'], {
    input: readFileSync(file),
  }).toString()
if (format(fresh) !== readFileSync('src/spec/users-api.ts', 'utf8')) {
  console.error('src/spec/users-api.ts is out of date with openapi/users.yaml. Run: npm run types:generate')
  process.exit(1)
}
console.log('src/spec/users-api.ts matches openapi/users.yaml.')
