import type { FastifyInstance } from 'fastify'
import type { UserStore } from '../domain/user-store.js'
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
    this.writing = this.writeWhileChanged().finally(() => {
      this.writing = undefined
    })
  }

  /** Resolves once the current state is on disk. */
  async flush(): Promise<void> {
    await this.writing
    if (this.changed()) await this.writeWhileChanged()
  }

  private async writeWhileChanged(): Promise<void> {
    while (this.changed()) {
      const mark = this.mark()
      try {
        await writeFileAtomically(this.path, `${JSON.stringify(this.state.store.exportState(), null, 2)}\n`)
        this.saved = mark
      } catch (error) {
        // A full disk or a removed directory must not stop the mock; the next change tries again.
        this.onError(error)
        return
      }
    }
  }

  private changed(): boolean {
    return this.saved?.store !== this.state.store || this.saved.revision !== this.state.store.revision
  }

  private mark(): SavedMark {
    return { store: this.state.store, revision: this.state.store.revision }
  }
}

/** Writes the state file after each request that changed the state, and once more when the app closes. */
export async function attachStateFile(app: FastifyInstance, stateFile: StateFile): Promise<void> {
  await removeLeftoverTemporaryFiles(stateFile.path)
  app.addHook('onResponse', (_request, _reply, done) => {
    stateFile.schedule()
    done()
  })
  app.addHook('onClose', async () => stateFile.flush())
  stateFile.schedule()
}
