import type { FastifyInstance } from 'fastify'
import type { UserStore } from '../domain/user-store.js'
import { AppError } from '../errors.js'
import { removeLeftoverTemporaryFiles, writeFileAtomically } from '../write-file-atomically.js'
import type { StateHolder } from './state-holder.js'

interface SavedMark {
  store: UserStore
  revision: number
}

/**
 * Keeps `--state-file` in step with the mock's state: after every request that changed it, the
 * whole state is written atomically. Writes never overlap and coalesce under load (at most one
 * waits behind the one in flight), so a burst of PATCHes costs a couple of writes, not one each.
 * The mock flushes the last change when it closes; a crash loses at most the changes of the last
 * moments, never the file.
 */
export class StateFile {
  private saved: SavedMark | undefined
  private writing: Promise<void> | undefined

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
    this.writing = this.writeWhileChanged()
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

  private async writeWhileChanged(): Promise<void> {
    while (this.changed()) {
      const mark = this.mark()
      await writeFileAtomically(this.path, this.serialize())
      this.saved = mark
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
 * A new file is written at once, so that a path the mock cannot write stops the start, not a later PATCH.
 */
export async function attachStateFile(app: FastifyInstance, stateFile: StateFile): Promise<void> {
  await removeLeftoverTemporaryFiles(stateFile.path)
  try {
    await stateFile.flush()
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', `Cannot write the state file ${stateFile.path}: ${describe(error)}.`)
  }
  app.addHook('onResponse', (_request, _reply, done) => {
    stateFile.schedule()
    done()
  })
  app.addHook('onClose', async () => stateFile.flush().catch((error: unknown) => app.log.error({ err: error })))
}

function describe(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === 'ENOENT') return 'its directory does not exist'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  return message
}
