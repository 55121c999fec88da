import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa, type ResultPromise } from 'execa'
import type { Target } from '../../src/contract/target/target.js'
import { freePort } from './free-port.js'

// The second implementation of the users API (test/support/second-implementation/users_api.py, Python's standard
// library, written apart from the mock): started for a test, with its webhook receiver subscribed.

const SERVER = 'test/support/second-implementation/users_api.py'

const servers = new Set<ResultPromise>()

/** Stops every second implementation a test file started and left running (call it in afterAll). */
export async function stopSecondImplementations(): Promise<void> {
  for (const server of servers) server.kill('SIGTERM')
  await Promise.allSettled([...servers])
}

/** Starts the second implementation with its receiver subscribed, and returns its target file. */
export async function startSecondImplementation(
  flags: string[],
): Promise<{ target: Target; stop: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'second-implementation-'))
  const targetFile = join(directory, 'target.json')
  const receiver = await freePort()
  const server = execa(
    'python3',
    [
      SERVER,
      '--port',
      '0',
      '--target-out',
      targetFile,
      '--webhook',
      `http://127.0.0.1:${receiver}/`,
      '--webhook-receiver',
      `127.0.0.1:${receiver}`,
      ...flags,
    ],
    { reject: false, all: true },
  )
  servers.add(server)
  await new Promise<void>((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`The second implementation did not start:\n${output}`)), 20_000)
    server.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (/listening on http:\/\//.test(output)) {
        clearTimeout(timer)
        resolve()
      }
    })
    void server.then((result) =>
      reject(new Error(`The second implementation stopped (${result.exitCode}):\n${output}`)),
    )
  })
  const target = JSON.parse(await readFile(targetFile, 'utf8')) as Target
  await rm(directory, { recursive: true, force: true })
  return {
    target,
    stop: async () => {
      server.kill('SIGTERM')
      await server
      servers.delete(server)
    },
  }
}
