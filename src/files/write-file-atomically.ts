import { randomBytes } from 'node:crypto'
import { open, readdir, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Replaces `path` with `text` so that a reader, or a process killed at any moment, sees the old
 * file or the new one, never a part: write a temporary file beside it, fsync, rename over it, then
 * fsync the directory so that the rename itself survives a power cut. A symbolic link at `path` is
 * replaced, never written through. `mode`: the new file's (0600 by default: a state holds tokens).
 *
 * @example
 * await writeFileAtomically('state.json', JSON.stringify(state))
 */
export async function writeFileAtomically(path: string, text: string, mode = 0o600): Promise<void> {
  const temporary = temporaryPath(path)
  let created = false
  try {
    const file = await createExclusively(temporary, mode)
    created = true
    try {
      await file.writeFile(text)
      await file.sync()
    } finally {
      await file.close()
    }
    await rename(temporary, path)
  } catch (error) {
    if (created) await unlink(temporary).catch(() => undefined)
    throw error
  }
  await syncDirectory(dirname(path))
}

/**
 * Fails with the reason when `path` cannot be written atomically (a missing or read-only directory): a
 * temporary file is created beside it and removed. The file itself is left as it is.
 */
export async function assertWritable(path: string): Promise<void> {
  const temporary = temporaryPath(path)
  const file = await createExclusively(temporary)
  await file.close()
  await unlink(temporary)
}

/**
 * An unpredictable name, opened with O_CREAT|O_EXCL: a file or a symbolic link planted at that name
 * makes the open fail instead of receiving the state (tokens included).
 */
function temporaryPath(path: string): string {
  return join(dirname(path), `${temporaryPrefix(path)}${randomBytes(12).toString('hex')}.tmp`)
}

function createExclusively(path: string, mode = 0o600) {
  return open(path, 'wx', mode)
}

/** Temporary files that a killed writer left beside `path`; never the file itself. */
export async function removeLeftoverTemporaryFiles(path: string): Promise<void> {
  const prefix = temporaryPrefix(path)
  const names = await readdir(dirname(path)).catch(() => [])
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'))
      .map((name) => unlink(join(dirname(path), name)).catch(() => undefined)),
  )
}

function temporaryPrefix(path: string): string {
  return `.${basename(path)}.`
}

/** Not every platform can open a directory (Windows cannot); the rename is then as durable as it gets. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r').catch(() => undefined)
  if (!handle) return
  try {
    await handle.sync()
  } catch {
    // EINVAL/EISDIR on some file systems: nothing more to do.
  } finally {
    await handle.close()
  }
}
