import { AppError } from '../errors.js'
import { parseTarget, readTargetFile, type Target } from './target.js'

/**
 * The target of a run: a target file, or a running mock's own (`GET /__mock/target`, the one
 * `/__mock/` route the suite uses). Every failure says what to do instead.
 */
export async function resolveTarget(
  source: { targetFile?: string; baseUrl?: string },
  timeoutMs: number,
): Promise<Target> {
  if (source.targetFile) return readTargetFile(source.targetFile)
  if (!source.baseUrl)
    throw new AppError(
      'VALIDATION_FAILED',
      'Give --target FILE (any backend) or --base-url URL (a running users-api-kit mock).',
    )
  const url = `${source.baseUrl.replace(/\/+$/, '')}/__mock/target`
  let response: Response
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Cannot reach ${source.baseUrl} (${describeFetchError(error)}). Is the mock running? Start it with: npx users-api-kit mock`,
    )
  }
  if (!response.ok) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${url} answered ${response.status}: --base-url works with a users-api-kit mock only. For any other backend, write a target file (schemas/target.schema.json) and give --target FILE.`,
    )
  }
  return parseTarget(await response.json())
}

/** Any HTTP answer from the base URL will do: this only tells "unreachable" (exit 2) from "broken" (exit 1). */
export async function assertReachable(target: Target, timeoutMs: number): Promise<void> {
  try {
    await fetch(`${target.baseUrl}/api/users/me`, { signal: AbortSignal.timeout(timeoutMs) }).then((response) =>
      response.body?.cancel(),
    )
  } catch (error) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Cannot reach the target ${target.baseUrl} (${describeFetchError(error)}). Is it running, and is baseUrl right?`,
    )
  }
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if (cause?.code) return cause.code
  // e.g. "bad port": fetch refuses some ports (6000, 6665…) without a code; "fetch failed" says nothing.
  if (cause?.message) return cause.message
  return error instanceof Error ? error.message : String(error)
}
