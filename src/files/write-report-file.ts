import { mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { writeFileAtomically } from './write-file-atomically.js'

/**
 * Writes a report (`--out`, `--junit`, `--json`, `--html`) as the state file is written: to a temporary
 * file of its own beside it, then renamed over it. A symbolic link planted at the report's name (an
 * `--out` folder others can write to) is replaced, never written through to the file it names. The
 * folder is made if missing; the file is readable as any file the user writes (umask).
 *
 * @example
 * await writeReportFile('out/users-api-kit-gate.xml', xml)
 */
export async function writeReportFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(resolve(path)), { recursive: true })
  await writeFileAtomically(resolve(path), text, 0o666)
}
