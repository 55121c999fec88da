import type { UserStore } from '../domain/user-store.js'
import type { EngineRequest, EngineResponse } from '../engine/engine-request.js'
import type { Engine } from '../engine/handle-request.js'

/** Answers kept at most: the pages and users a frontend reads over and over, not every query ever sent. */
const MAX_ANSWERS = 1_000

/**
 * The characters of the kept answers' bodies at most: 1,000 pages of 100 users would otherwise hold
 * 40 MB. Far more than a frontend reads again; a page larger than it is never kept.
 */
const MAX_ANSWER_CHARACTERS = 8 * 1024 * 1024

/** Slots of the table of keys asked once: a request asked again within a few thousand others is kept. */
const SEEN_ONCE_SLOTS = 4_096

interface KeptAnswer {
  /** The store and its revision the answer was computed from: any change, reset or import makes it stale. */
  store: UserStore
  revision: number
  response: EngineResponse
  /** Reused since the eviction sweep last passed it: it gets a second chance (`evictOne`). */
  reused: boolean
}

/** The engine behind its cache of answers, and the cache's own door. */
export interface CachedEngine {
  /** Answers every request: from the cache when it kept this one's answer on this state, else the engine. */
  handle: Engine
  /**
   * The answer kept for this very request on the state as it is now, or undefined: a transport may write
   * it at once, without the engine's asynchronous path.
   */
  reuse(request: EngineRequest): EngineResponse | undefined
}

/**
 * A run-time cache of the engine's answers to GET and HEAD: the same request (method, target, token) on the
 * same state gets the same answer, so a page read again costs a lookup instead of a listing and its JSON.
 * An answer is kept with the store and revision it came from and never served after either moved. Requests
 * the engine answers differently each time are not kept: with a `Prefer` header, a body, or while the
 * mock simulates latency or failures (docs/contract.md §7). An answer is kept when asked a second time (a
 * read asked once is not worth keeping, and costs memory: SeenOnce); at most MAX_ANSWERS holding
 * MAX_ANSWER_CHARACTERS: past either, the oldest answer not reused since it was last passed over goes (the
 * "second chance" approximation of least recently used).
 *
 * @example
 * const { handle, reuse } = cacheAnswers(engine, () => state.store, { simulates: false })
 */
export function cacheAnswers(
  engine: Engine,
  store: () => UserStore,
  { simulates }: { simulates: boolean },
): CachedEngine {
  if (simulates) return { handle: engine, reuse: () => undefined }
  const kept = new Map<string, KeptAnswer>()
  const seenOnce = new SeenOnce(SEEN_ONCE_SLOTS)
  let characters = 0
  const reuse = (request: EngineRequest): EngineResponse | undefined => {
    const key = keyOf(request)
    const found = key === undefined ? undefined : kept.get(key)
    const current = store()
    if (key === undefined || !found || found.store !== current || found.revision !== current.revision) return undefined
    // Marked, not moved: a delete and a set on every read made V8 rehash this long-lived Map's table again
    // and again, each new table in the old generation, which then filled under load (BENCHMARKS.md).
    found.reused = true
    return found.response
  }
  const handle: Engine = async (request) => {
    const key = keyOf(request)
    if (key === undefined) return engine(request)
    const reused = reuse(request)
    if (reused) return reused
    const current = store()
    const revision = current.revision
    const response = await engine(request)
    // Kept only when nothing changed while the engine answered (another request's PATCH, a reset): then
    // the answer is the one of this store at this revision. And only when asked before: an answer asked
    // once (60,000 distinct searches) would be kept long enough for V8 to move it to its old generation,
    // which grew by 250 MiB and kept it (15 MB of answers kept at any time).
    const size = response.body?.length ?? 0
    if (store() === current && current.revision === revision && response.status < 500 && seenOnce.again(key)) {
      if (size > MAX_ANSWER_CHARACTERS) return response
      forget(key)
      // Room made first: the sweep never meets the answer it makes room for.
      while (kept.size >= MAX_ANSWERS || characters + size > MAX_ANSWER_CHARACTERS) forget(evictOne(kept))
      kept.set(key, { store: current, revision, response, reused: false })
      characters += size
    }
    return response
  }
  function forget(key: string | undefined): void {
    const answer = key === undefined ? undefined : kept.get(key)
    if (answer === undefined) return
    kept.delete(key as string)
    characters -= answer.response.body?.length ?? 0
  }
  return { handle, reuse }
}

/**
 * The answer to forget next, oldest first, passing over (and moving to the newest end) each one reused
 * since it was kept or last passed over. Ends within one round: a passed-over answer is no longer marked.
 */
function evictOne(kept: Map<string, KeptAnswer>): string | undefined {
  for (const [key, answer] of kept) {
    if (!answer.reused) return key
    kept.delete(key)
    answer.reused = false
    kept.set(key, answer)
  }
  return undefined
}

/**
 * The keys asked once lately, as hashes in a table of fixed size: remembering one allocates nothing.
 * Two keys of one slot take turns (the later one asked again is then not kept); two of one hash share
 * it (the second is kept at once): either way an answer, never a wrong one.
 */
class SeenOnce {
  readonly #slots: Int32Array

  constructor(size: number) {
    this.#slots = new Int32Array(size)
  }

  /** Whether `key` was asked lately (and is then forgotten); else it is remembered. */
  again(key: string): boolean {
    const hash = hashOf(key)
    const slot = (hash >>> 0) % this.#slots.length
    if (this.#slots[slot] === hash) {
      this.#slots[slot] = 0
      return true
    }
    this.#slots[slot] = hash
    return false
  }
}

/** FNV-1a over the key's UTF-16 code units, never 0 (an empty slot). */
function hashOf(key: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193)
  return hash | 1
}

/**
 * Method, request target and credentials, for the reads whose answer depends on nothing else: of a request's
 * headers the engine reads only these, `Prefer` (never kept) and, for a body, its type and coding. A header
 * the engine comes to read must join the key.
 */
function keyOf(request: EngineRequest): string | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined
  if (request.headers['prefer'] !== undefined) return undefined
  if (request.body !== undefined && request.body.length > 0) return undefined
  return `${request.method} ${request.url}\n${request.headers['authorization'] ?? ''}`
}
