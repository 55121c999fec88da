import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

interface FixtureFile {
  organizations: Array<{ id: string }>
  users: Array<{ organizationId: string }>
}

/**
 * A fixture file with only the first organization of `source` and its named users (owner-token …), so
 * that `--users N` puts all N generated users in the caller's organization.
 */
export async function writeOneOrganizationFixture(source: string, directory: string): Promise<string> {
  const fixtures = JSON.parse(await readFile(source, 'utf8')) as FixtureFile
  const first = fixtures.organizations[0]
  if (!first) throw new Error(`${source} has no organization.`)
  const path = join(directory, 'one-organization.json')
  const users = fixtures.users.filter((user) => user.organizationId === first.id)
  await writeFile(path, JSON.stringify({ organizations: [first], users }, null, 2))
  return path
}
