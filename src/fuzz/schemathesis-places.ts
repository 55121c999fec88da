import { homedir } from 'node:os'
import { join } from 'node:path'
import { userCacheFolder } from '../files/user-cache-folder.js'

// Which Schemathesis the kit runs and where it lives: what the finder (find-schemathesis.ts) and the
// set-up (set-up-schemathesis.ts) both know.

/** The Schemathesis release the kit is built and tested with; `npm run setup:fuzz` installs exactly this. */
export const SCHEMATHESIS_VERSION = '4.32.5'

/** Where the kit's own virtualenv lives, relative to the package root (ignored by git). */
export const VIRTUALENV_DIR = '.venv'

/**
 * The user's own virtual environment for the pinned Schemathesis, under their cache folder
 * (`XDG_CACHE_HOME`, else `~/.cache`): what `users-api-kit setup-fuzz` creates and `fuzz` finds. None when
 * the user has no cache folder of their own (files/user-cache-folder.ts).
 */
export function userVirtualenvDir(
  env: Record<string, string | undefined>,
  home: () => string = homedir,
): string | undefined {
  const cache = userCacheFolder(env, home)
  return cache === undefined ? undefined : join(cache, `schemathesis-${SCHEMATHESIS_VERSION}`)
}

/** The `st` executable inside a virtual environment. */
export function schemathesisIn(virtualenv: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? join(virtualenv, 'Scripts', 'st.exe') : join(virtualenv, 'bin', 'st')
}
