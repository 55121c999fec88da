import type { MockState } from '../domain/mock-state.js'
import type { UserEventListener } from '../domain/user-events.js'
import { UserStore, type StateSource, type StoreSnapshot } from '../domain/user-store.js'

/** Users filed into a new store in one step of a long load: a few milliseconds. */
const STEP_SIZE = 500

/**
 * The mock's current store and the state `POST /__mock/reset` returns to. Replacing the whole
 * store (reset, import) is one assignment, so a request sees either the old state or the new one.
 */
export class StateHolder {
  store: UserStore
  /** What the mock was seeded with: snapshots share the store's user objects, no copy of them. */
  readonly seed: StoreSnapshot
  private baseline: StoreSnapshot

  constructor(
    seed: StateSource,
    private readonly now?: () => Date,
    /** Every store this holder makes tells it of its events (CONTRACT §6). */
    private readonly onEvent?: UserEventListener,
  ) {
    this.store = new UserStore(seed, now, onEvent)
    this.seed = this.store.snapshot()
    this.baseline = this.seed
  }

  reset(): void {
    this.store = UserStore.restore(this.baseline, this.now, this.onEvent)
  }

  /** Replaces the current state (already validated); the baseline stays. */
  replace(state: MockState): void {
    this.store = new UserStore(state, this.now, this.onEvent)
  }

  /**
   * {@link replace} as steps of {@link STEP_SIZE} users, for a caller that lets other work run between
   * them: requests meanwhile see the old state, and the new one replaces it whole at the last step.
   */
  *replaceInSteps(state: MockState): Generator<void, void> {
    const store = new UserStore({ organizations: state.organizations, users: [] }, this.now, this.onEvent)
    for (let offset = 0; offset < state.users.length; offset += STEP_SIZE) {
      for (const user of state.users.slice(offset, offset + STEP_SIZE)) store.addUser(user)
      yield
    }
    this.store = store
  }

  /** From now on, reset returns to the current state (startMock keeps its target's users this way). */
  markBaseline(): void {
    this.baseline = this.store.snapshot()
  }
}
