import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import type { UserStore } from '../domain/user-store.js'
import { AppError } from '../errors.js'
import { assertWritable, removeLeftoverTemporaryFiles, writeFileAtomically } from '../files/write-file-atomically.js'
import type { StateHolder } from '../mock-instance/state-holder.js'

/**
 * Serializing is synchronous: ~1 s for 100,000 users. Resting three times as long between writes keeps
 * it under a quarter of the mock's time under constant writes; for the default seed it is ~1 ms.
 */
const PAUSE_FACTOR = 3
const MAX_PAUSE_MS = 5_000

interface SavedMark {
  store: UserStore
  revision: number
}

/**
 * Keeps `--state-file` in step with the mock's state: after every request that changed it, the
 * whole state is written atomically. Writes never overlap and coalesce under load (at most one
 * waits behind the one in flight, after a rest), so a burst of PATCHes costs a couple of writes.
 * The mock flushes the last change when it closes; a crash loses at most the changes of the last
 * moments, never the file.
 */
export class StateFile {
  private saved: SavedMark | undefined
  private writing: Promise<void> | undefined
  private resting: AbortController | undefined
  private closing = false

  constructor(
    readonly path: string,
    private readonly state: StateHolder,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The state as it is now counts as saved (it was just loaded from the file). */
  markSaved(): void {
    this.saved = this.mark()
  }

  /** Starts a write if the state changed since the last one; returns at once. */
  schedule(): void {
    if (this.writing || !this.changed()) return
    this.writing = this.writeWhileChanged(PAUSE_FACTOR)
      // A full disk or a removed directory must not stop the mock; the next change tries again.
      .catch(this.onError)
      .finally(() => {
        this.writing = undefined
      })
  }

  /** Resolves once the current state is on disk; rejects if it cannot be written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing
    await this.writeWhileChanged()
  }

  /** The last flush: no rest between writes any more, and the one under way is cut short. */
  async close(): Promise<void> {
    this.closing = true
    this.resting?.abort()
    await this.flush()
  }

  /** `pauseFactor`: rest that many times the last write's duration before the next one. */
  private async writeWhileChanged(pauseFactor = 0): Promise<void> {
    while (this.changed()) {
      const started = performance.now()
      const mark = this.mark()
      await writeFileAtomically(this.path, this.serialize())
      this.saved = mark
      const pause = Math.min((performance.now() - started) * pauseFactor, MAX_PAUSE_MS)
      if (pause >= 1 && this.changed() && !this.closing) {
        this.resting = new AbortController()
        await setTimeout(pause, undefined, { signal: this.resting.signal }).catch(() => undefined)
      }
    }
  }

  private serialize(): string {
    return `${JSON.stringify(this.state.store.exportState(), null, 2)}\n`
  }

  private changed(): boolean {
    return this.saved?.store !== this.state.store || this.saved.revision !== this.state.store.revision
  }

  private mark(): SavedMark {
    return { store: this.state.store, revision: this.state.store.revision }
  }
}

/**
 * Writes the state file after each request that changed the state, and once more when the app closes.
 * A path the mock cannot write stops the start, not a later PATCH: a temporary file is created beside it
 * and removed (a missing or read-only directory). The first write is the caller's, once the mock
 * listens (`MockApp.listen`): a start that fails writes nothing.
 */
export async function attachStateFile(app: FastifyInstance, stateFile: StateFile): Promise<void> {
  await removeLeftoverTemporaryFiles(stateFile.path)
  try {
    await assertWritable(stateFile.path)
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', `Cannot write the state file ${stateFile.path}: ${describe(error)}.`)
  }
  // After every answer, of the users API (the engine's) and of the mock's own routes (Fastify's) alike.
  app.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    response.once('finish', () => stateFile.schedule())
  })
  // A failed last write rejects the close: the CLI then exits 1, since changes were lost.
  app.addHook('onClose', async () => stateFile.close())
}

function describe(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === 'ENOENT') return 'its directory does not exist'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  return message
}
