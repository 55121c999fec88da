import { rmSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Signals that end a run early: Ctrl-C, a CI runner's stop, a closed terminal. */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

export interface ScratchDirectory {
  path: string
  /** Removes it (and stops watching for signals); safe to call twice. */
  remove(): Promise<void>
}

/**
 * A fresh temporary directory that does not outlive the run: `remove()` when done, and removed also
 * when the process is interrupted by a signal or exits without removing it. The signal is then raised
 * again, so the process ends as it would have (and other handlers, such as execa's killing of child
 * processes, still run). A run that handles a signal itself (verify's Ctrl-C) leaves it out of `signals`.
 *
 * @example
 * const scratch = await createScratchDirectory('users-api-kit-fuzz-')
 * try { … scratch.path … } finally { await scratch.remove() }
 */
export async function createScratchDirectory(
  prefix: string,
  signals: readonly NodeJS.Signals[] = ENDING_SIGNALS,
): Promise<ScratchDirectory> {
  const path = await mkdtemp(join(tmpdir(), prefix))
  const removeNow = () => rmSync(path, { recursive: true, force: true })
  const onSignal = (signal: NodeJS.Signals) => {
    stopWatching()
    removeNow()
    process.kill(process.pid, signal)
  }
  const stopWatching = () => {
    for (const signal of signals) process.removeListener(signal, onSignal)
    process.removeListener('exit', removeNow)
  }
  for (const signal of signals) process.on(signal, onSignal)
  process.on('exit', removeNow)
  return {
    path,
    remove: async () => {
      stopWatching()
      await rm(path, { recursive: true, force: true })
    },
  }
}
