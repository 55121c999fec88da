import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
// The tests' picker (why not listen(0): its comment).
import { freePort } from '../test/support/free-port.js'
import { spawnServer, stopProcess, type Launch, type ServerProcess } from './server-process.js'

const POLL_EVERY_MS = 2
const GIVE_UP_MS = 60_000

/**
 * Spawns a server on a port chosen beforehand and resolves at the first 200 of `GET path`: the poller
 * fetches every few ms (a refused connection fails at once), as a test runner waiting for its mock
 * would. `readyMs` is spawn → that 200. For cold starts, and for servers whose stdout is discarded,
 * which print no "listening" line the bench could read.
 */
export async function startOnFirst200(
  launchOn: (port: number) => Launch,
  path: string,
  headers: Record<string, string>,
): Promise<ServerProcess> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const started = performance.now()
  const child = spawnServer(launchOn(port))
  child.stdout?.resume()
  child.stderr?.resume()
  try {
    while (performance.now() - started < GIVE_UP_MS) {
      if (child.exitCode !== null)
        throw new Error(`${url}${path}: the server exited (${child.exitCode}) before answering`)
      if (await answers200(`${url}${path}`, headers)) {
        return { child, pid: child.pid!, url, readyMs: performance.now() - started, stop: () => stopProcess(child) }
      }
      await sleep(POLL_EVERY_MS)
    }
    throw new Error(`${url}${path}: no 200 within ${GIVE_UP_MS} ms`)
  } catch (error) {
    await stopProcess(child)
    throw error
  }
}

async function answers200(url: string, headers: Record<string, string>): Promise<boolean> {
  try {
    const response = await fetch(url, { headers })
    await response.arrayBuffer()
    return response.status === 200
  } catch {
    return false
  }
}
