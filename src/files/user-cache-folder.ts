import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'

/**
 * The kit's folder in the user's own cache (`XDG_CACHE_HOME`, else `~/.cache`): the Schemathesis that
 * `setup-fuzz` installs and `fuzz` runs, the code Node compiles for `verify`. Under the user's home, not in a
 * shared temporary folder (on Linux, /tmp), where another local user could make the folder first and plant
 * what the kit loads. None when there is no absolute place to put it: a relative XDG_CACHE_HOME is ignored,
 * as the XDG spec says, and a home that is empty, relative or unknown (no HOME, a user id without an entry in
 * /etc/passwd, as in containers) would put it in the current folder, or throw.
 *
 * @example
 * userCacheFolder(process.env) // '/home/ada/.cache/users-api-kit'
 */
export function userCacheFolder(
  env: Record<string, string | undefined>,
  home: () => string = homedir,
): string | undefined {
  const xdg = env['XDG_CACHE_HOME']
  if (xdg && isAbsolute(xdg)) return join(xdg, 'users-api-kit')
  let folder: string
  try {
    folder = home()
  } catch {
    return undefined
  }
  return folder && isAbsolute(folder) ? join(folder, '.cache', 'users-api-kit') : undefined
}
