import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { MockState } from '../../src/domain/mock-state.js'
import { parseState } from '../../src/domain/parse-state.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { compileStateValidator } from '../../src/spec/state-schema.js'
import { createMockApp, type MockApp } from '../../src/server/start-mock.js'
import { injectApi } from '../support/inject-api.js'
import { mockStateOf } from '../support/mock-state-of.js'
import { namedUser } from '../support/named-users.js'

// `--state-file F`: the state survives a restart, and the file is whole whatever happens.

let directory: string
let stateFile: string
const open: MockApp[] = []

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'state-file-'))
  stateFile = join(directory, 'state.json')
})

afterEach(async () => {
  for (const mock of open.splice(0)) await mock.app.close()
})

async function start(): Promise<MockApp> {
  const mock = await createMockApp({ users: 4, stateFile })
  open.push(mock)
  return mock
}

/** Closing flushes the last change: what a restart after SIGTERM sees. */
async function restart(mock: MockApp): Promise<MockApp> {
  open.splice(open.indexOf(mock), 1)
  await mock.app.close()
  return start()
}

/** The same users in any order: the seed is in generation order, an export in list order. */
function byId(state: MockState): MockState {
  return { ...state, users: [...state.users].sort((a, b) => a.id.localeCompare(b.id)) }
}

async function fileState(): Promise<MockState> {
  return JSON.parse(await readFile(stateFile, 'utf8')) as MockState
}

function rename(mock: MockApp, id: string, name: string) {
  return injectApi(mock.app, { method: 'PATCH', url: `/api/users/${id}`, token: 'owner-token', body: { name } })
}

describe('--state-file', () => {
  test('a new file starts from the seed (written once the mock listens, and at its close)', async () => {
    const mock = await start()
    expect(mock.loadedStateFile).toBe(false)
    await mock.app.close()
    expect(byId(await fileState())).toEqual(byId(mock.seed))
  })

  test('a PATCH and a DELETE survive a restart; the file equals GET /__mock/state', async () => {
    const viewer = await namedUser('viewer-token')
    const bot = await namedUser('bot-token')
    let mock = await start()
    expect((await rename(mock, viewer.id, 'Kept Across Restarts')).status).toBe(200)
    const deleted = await injectApi(mock.app, { method: 'DELETE', url: `/api/users/${bot.id}`, token: 'owner-token' })
    expect(deleted.status).toBe(204)
    const before = await mockStateOf(mock.app)

    mock = await restart(mock)
    expect(mock.loadedStateFile).toBe(true)
    expect(await mockStateOf(mock.app)).toEqual(before)
    expect(await fileState()).toEqual(before)
    const me = await injectApi<{ data: { name: string } }>(mock.app, { url: '/api/users/me', token: 'viewer-token' })
    expect(me.body.data.name).toBe('Kept Across Restarts')
    expect((await injectApi(mock.app, { url: '/api/users/me', token: 'bot-token' })).status).toBe(401)
  })

  test('the file follows the state while the mock runs, not only at close', async () => {
    const viewer = await namedUser('viewer-token')
    const mock = await start()
    await rename(mock, viewer.id, 'Written While Running')
    await expect
      .poll(async () => (await fileState()).users.find((user) => user.id === viewer.id)?.name, { timeout: 5_000 })
      .toBe('Written While Running')
  })

  test('a burst of changes ends with the last one on disk', async () => {
    const viewer = await namedUser('viewer-token')
    const mock = await start()
    await Promise.all(Array.from({ length: 40 }, (_, index) => rename(mock, viewer.id, `Burst ${index}`)))
    const last = await rename(mock, viewer.id, 'Last Of The Burst')
    expect(last.status).toBe(200)
    await mock.app.close()
    expect((await fileState()).users.find((user) => user.id === viewer.id)?.name).toBe('Last Of The Burst')
  })

  test('POST /__mock/reset returns to the seed, and so does the file', async () => {
    const viewer = await namedUser('viewer-token')
    let mock = await start()
    await rename(mock, viewer.id, 'Before The Reset')
    mock = await restart(mock)
    await injectApi(mock.app, { method: 'POST', url: '/__mock/reset' })
    await mock.app.close()
    expect(byId(await fileState())).toEqual(byId(mock.seed))
  })

  test('a refused request writes nothing: the file keeps its bytes and time', async () => {
    const mock = await start()
    await mock.app.close()
    const again = await start()
    // Every write renames a new file over the old one: the same inode means no write at all.
    const before = await stat(stateFile)
    const refused = await injectApi(again.app, {
      method: 'PATCH',
      url: '/api/users/usr_nobodyqqqqqqqqqqqqqq',
      token: 'owner-token',
      body: { name: 'x' },
    })
    expect(refused.status).toBe(404)
    await again.app.close()
    const after = await stat(stateFile)
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs])
  })

  test('a change is a new file (a rename over the old one): what the test above relies on', async () => {
    const viewer = await namedUser('viewer-token')
    // A new file is written once the mock listens or closes: closed here, so that it exists.
    await (await start()).app.close()
    const mock = await start()
    const before = await stat(stateFile)
    await rename(mock, viewer.id, 'A Real Change')
    await mock.app.close()
    expect((await stat(stateFile)).ino).not.toBe(before.ino)
  })

  test('an invalid file stops the start with its name and the path of the first problem, and stays as it was', async () => {
    const mock = await start()
    await mock.app.close()
    const state = await fileState()
    const broken = JSON.stringify({ ...state, users: [...state.users, { ...state.users[0], email: 'bad' }] })
    await writeFile(stateFile, broken)
    await expect(start()).rejects.toThrow(
      new RegExp(
        `The state file ${stateFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a valid state\\. .*/users/`,
      ),
    )
    expect(await readFile(stateFile, 'utf8')).toBe(broken)
  })

  test('a file that is not JSON stops the start with the line and column', async () => {
    await writeFile(stateFile, '{\n  "organizations": [\n')
    await expect(start()).rejects.toThrow(/state file .* is not valid JSON \(line 3/)
  })

  test('a path the mock cannot write stops the start, saying why', async () => {
    stateFile = join(directory, 'missing-directory', 'state.json')
    await expect(start()).rejects.toThrow(/Cannot write the state file .*: its directory does not exist/)
  })

  test('temporary files a killed writer left behind are removed at start; other files stay', async () => {
    await writeFile(join(directory, '.state.json.999.1.tmp'), '{"half": ')
    await writeFile(join(directory, 'notes.txt'), 'mine')
    const mock = await start()
    await mock.app.close()
    expect((await readdir(directory)).sort()).toEqual(['notes.txt', 'state.json'])
  })
})

describe('the file the mock writes', () => {
  let validate: ReturnType<typeof compileStateValidator>
  beforeAll(async () => {
    validate = compileStateValidator((await loadSpec()).dereferenced)
  })

  test('is a valid state document: it can be given to --fixtures as is', async () => {
    const mock = await start()
    await mock.app.close()
    expect(byId(parseState(await fileState(), validate))).toEqual(byId(mock.seed))
  })
})
