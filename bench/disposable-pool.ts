/** A disposable user of the soak: renamed back and forth, then deleted. */
export interface Disposable {
  id: string
  renames: number
}

/** `POST /__mock/target?disposable=N` accepts at most 100. */
const BATCH = 100

/**
 * The disposable users the soak may change, each leased to one request at a time, so that every
 * answer is known in advance: a leased user exists (PATCH 200, DELETE 204) and a deleted one is gone
 * (DELETE 404). New users come from the mock's `/__mock/target` whenever the pool runs low, so the
 * mock's state keeps about the same size however long the soak runs.
 */
export class DisposablePool {
  private readonly free: Disposable[] = []
  private readonly deleted: string[] = []
  private refilling: Promise<void> | undefined
  /** Users the mock created for the soak, and those it deleted (204). */
  created = 0
  deletedCount = 0
  /** Why a refill during the traffic failed, if one did. */
  refillError: string | undefined

  constructor(
    private readonly baseUrl: string,
    private readonly low = BATCH,
  ) {}

  /** Fills the pool before the traffic starts. */
  async fill(count: number): Promise<void> {
    while (this.free.length < count) await this.refill()
  }

  /** A free user, leased until `release` or `markDeleted`; undefined when none is free right now. */
  lease(): Disposable | undefined {
    if (this.free.length < this.low) void this.refillOnce()
    return this.free.shift()
  }

  release(user: Disposable): void {
    this.free.push(user)
  }

  markDeleted(user: Disposable): void {
    this.deletedCount++
    this.deleted.push(user.id)
  }

  /** The id of a user the soak deleted, to delete again (404), once. */
  takeDeleted(): string | undefined {
    return this.deleted.shift()
  }

  /** Once the refill under way, if any, is over: `created` then counts every user the mock made. */
  async settled(): Promise<void> {
    await this.refilling
  }

  private refillOnce(): Promise<void> {
    this.refilling ??= this.refill()
      .catch((error: unknown) => void (this.refillError ??= String(error)))
      .finally(() => (this.refilling = undefined))
    return this.refilling
  }

  private async refill(): Promise<void> {
    const response = await fetch(`${this.baseUrl}/__mock/target?disposable=${BATCH}`, { method: 'POST' })
    if (response.status !== 200) throw new Error(`POST /__mock/target: ${response.status}\n${await response.text()}`)
    const { disposable } = (await response.json()) as { disposable: Array<{ id: string }> }
    for (const { id } of disposable) this.free.push({ id, renames: 0 })
    this.created += disposable.length
  }
}
