import { readdirSync } from 'node:fs'
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { MockState } from '../../src/domain/mock-state.js'
import { parseState } from '../../src/domain/parse-state.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { compileStateValidator, type StateValidator } from '../../src/spec/state-schema.js'
import { buildCliOnce, killRunningClis, runCli, startCli } from '../support/cli-mock-process.js'
import { namedUser } from '../support/named-users.js'

// `users-api-kit mock --state-file F` as its own process: restarts, bad files, and SIGKILL mid-write.

let validate: StateValidator

beforeAll(async () => {
  await buildCliOnce()
  validate = compileStateValidator((await loadSpec()).dereferenced)
}, 120_000)

afterEach(killRunningClis)

async function newStateFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'state-file-cli-')), 'state.json')
}

function rename(url: string, id: string, name: string): Promise<Response> {
  return fetch(`${url}/api/users/${id}`, {
    method: 'PATCH',
    headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  })
}

describe('mock --state-file', () => {
  test('a change survives SIGTERM and a restart; the banner says where the state came from', async () => {
    const stateFile = await newStateFile()
    const viewer = await namedUser('viewer-token')
    const first = await startCli(['--quiet', '--state-file', stateFile])
    expect(first.banner).toContain(`State    ${stateFile}`)
    expect((await rename(first.url, viewer.id, 'Survivor')).status).toBe(200)
    first.cli.kill('SIGTERM')
    expect((await first.cli).exitCode).toBe(0)

    const second = await startCli(['--quiet', '--state-file', stateFile])
    expect(second.banner).toContain(`loaded from ${stateFile}`)
    const me = await fetch(`${second.url}/api/users/me`, { headers: { authorization: 'Bearer viewer-token' } })
    expect(((await me.json()) as { data: { name: string } }).data.name).toBe('Survivor')
  })

  test('an invalid state file: exit 2, a message naming the file and the path, and the file untouched', async () => {
    const stateFile = await newStateFile()
    const text = JSON.stringify({ organizations: [], users: [{ id: 'usr_x' }] })
    await writeFile(stateFile, text)
    const result = await runCli(['mock', '--port', '0', '--state-file', stateFile])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(`The state file ${stateFile} is not a valid state.`)
    expect(result.stderr).toMatch(/\/users\/0/)
    expect(await readFile(stateFile, 'utf8')).toBe(text)
  })

  test('SIGKILL during writes, again and again, never leaves a corrupt file', async () => {
    const stateFile = await newStateFile()
    const viewer = await namedUser('viewer-token')
    // ~9,000 users make each write last long enough for kills to land in the middle of some.
    const args = ['--quiet', '--users', '2000', '--state-file', stateFile]
    const sent = new Set<string>()
    let original: string | undefined
    let interruptedWrites = 0
    for (let round = 0; round < 6; round++) {
      const { cli, url } = await startCli(args)
      original ??= ((await (await fetch(`${url}/__mock/state`)).json()) as MockState).users.find(
        (user) => user.id === viewer.id,
      )?.name
      let stop = false
      const writer = (async () => {
        for (let index = 0; !stop; index++) {
          const name = `Round ${round} write ${index}`
          sent.add(name)
          const response = await rename(url, viewer.id, name).catch((error: unknown) => {
            if (stop) return undefined // Killed, as meant.
            throw error
          })
          if (!response) return
          expect(response.status).toBe(200)
        }
      })()
      // Kill the moment a write is under way (its temporary file exists), or after 3 s whatever happens.
      await writeUnderWay(stateFile, 3_000)
      cli.kill('SIGKILL')
      stop = true
      await writer
      await cli
      const names = await readdir(join(stateFile, '..'))
      if (names.some((name) => name.endsWith('.tmp'))) interruptedWrites++
      // Whole, valid, and the viewer's name is one that was really sent (or the seed's).
      const state = parseState(JSON.parse(await readFile(stateFile, 'utf8')), validate)
      const name = state.users.find((user) => user.id === viewer.id)?.name
      expect([original, ...sent]).toContain(name)
    }
    // The mock starts again from what the last kill left, and removes the leftovers.
    const { url } = await startCli(args)
    expect((await fetch(`${url}/api/users/me`, { headers: { authorization: 'Bearer owner-token' } })).status).toBe(200)
    expect((await readdir(join(stateFile, '..'))).filter((name) => name.endsWith('.tmp'))).toEqual([])
    console.info(`state-file crash test: ${interruptedWrites} of 6 kills left a half-written temporary file`)
    // If no kill ever landed mid-write, the test proved nothing.
    expect(interruptedWrites).toBeGreaterThan(0)
  }, 90_000)
})

/** Resolves as soon as a temporary file of `path` exists (a write is under way), or after `limitMs`. */
async function writeUnderWay(path: string, limitMs: number): Promise<void> {
  const directory = dirname(path)
  const deadline = Date.now() + limitMs
  while (Date.now() < deadline) {
    if (readdirSync(directory).some((name) => name.endsWith('.tmp'))) return
    await new Promise((resolve) => setImmediate(resolve))
  }
}
