import type { UserStore } from '../domain/user-store.js'
import type { EngineRequest, EngineResponse } from '../engine/engine-request.js'
import type { Engine } from '../engine/handle-request.js'

/** Answers kept at most: the pages and users a frontend reads over and over, not every query ever sent. */
const MAX_ANSWERS = 1_000

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
 * mock simulates latency or failures (docs/contract.md §7). At most MAX_ANSWERS: past it, the oldest answer
 * not reused since it was last passed over goes (the "second chance" approximation of least recently used).
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
    // Kept only when nothing changed while the engine answered (another request's PATCH, a reset):
    // then the answer is the one of this store at this revision.
    if (store() === current && current.revision === revision && response.status < 500) {
      kept.delete(key)
      // Room made first: the sweep never meets the answer it makes room for.
      if (kept.size >= MAX_ANSWERS) evictOne(kept)
      kept.set(key, { store: current, revision, response, reused: false })
    }
    return response
  }
  return { handle, reuse }
}

/**
 * Forgets one answer, oldest first, passing over (and moving to the newest end) each one reused since it
 * was kept or last passed over. Ends within one round: a passed-over answer is no longer marked.
 */
function evictOne(kept: Map<string, KeptAnswer>): void {
  for (const [key, answer] of kept) {
    kept.delete(key)
    if (!answer.reused) return
    answer.reused = false
    kept.set(key, answer)
  }
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
