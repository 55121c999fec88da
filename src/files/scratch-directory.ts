import { readFileSync, rmSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Signals that end a run early: Ctrl-C, a CI runner's stop, a closed terminal. */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** A child process, as execa and node:child_process give it. */
export interface WritingProcess {
  readonly pid?: number | undefined
  kill(signal?: NodeJS.Signals): boolean
}

export interface ScratchDirectory {
  path: string
  /** Removes it (and stops watching for signals); safe to call twice. */
  remove(): Promise<void>
  /**
   * A process that writes into the directory: on a signal it is killed, and its end awaited, before the
   * directory is removed. Removed first, Schemathesis, still running, wrote its report there anew.
   */
  track(child: WritingProcess): void
}

/** How long a signal waits for a killed child to end before the directory is removed all the same. */
const CHILD_END_LIMIT_MS = 2_000

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
  const children = new Set<WritingProcess>()
  const removeNow = () => rmSync(path, { recursive: true, force: true })
  const onSignal = (signal: NodeJS.Signals) => {
    stopWatching()
    for (const child of children) killAndAwaitEnd(child)
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
    track: (child) => children.add(child),
  }
}

/**
 * Kills a child at once and waits, synchronously (a signal handler that awaited would let the run go on meanwhile),
 * until it has ended: gone, or a zombie in /proc (Linux). Elsewhere, or past the limit, it waits no longer.
 */
function killAndAwaitEnd(child: WritingProcess): void {
  if (child.pid === undefined || !child.kill('SIGKILL')) return
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (let waited = 0; waited < CHILD_END_LIMIT_MS; waited += 10) {
    let state: string | undefined
    try {
      state = /^\d+ \(.*\) (\S)/s.exec(readFileSync(`/proc/${child.pid}/stat`, 'utf8'))?.[1]
    } catch {
      return
    }
    if (state === undefined || state === 'Z' || state === 'X') return
    Atomics.wait(pause, 0, 0, 10)
  }
}
