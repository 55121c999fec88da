import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * The kit's folder in the user's own cache (`XDG_CACHE_HOME`, else `~/.cache`): the Schemathesis that
 * `setup-fuzz` installs, the code Node compiles for `verify`. Under the user's home, not in a shared
 * temporary folder, where another local user could make the folder first and plant what the kit reads.
 *
 * @example
 * userCacheFolder(process.env) // '/home/ada/.cache/users-api-kit'
 */
export function userCacheFolder(env: Record<string, string | undefined>, home = homedir()): string {
  return join(env['XDG_CACHE_HOME'] || join(home, '.cache'), 'users-api-kit')
}
