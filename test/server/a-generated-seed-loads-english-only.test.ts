import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCliOnce, ROOT } from '../support/cli-mock-process.js'

// faker's main entry loads every locale it ships (a Faker instance and its data each): ~120 ms and ~14 MiB
// of heap that a mock seeded with faker keeps for its life. generateState takes English and the base data
// from faker's English entry point instead.

const RECORDER = pathToFileURL(join(ROOT, 'test/support/record-loaded-modules.mjs')).href
const GENERATE = pathToFileURL(join(ROOT, 'dist/seed/generate-state.js')).href
const scratch = mkdtempSync(join(tmpdir(), 'faker-locales-'))

beforeAll(buildCliOnce)
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('a generated seed', () => {
  it("loads faker's English and base data, and no other locale", async () => {
    const record = join(scratch, 'loaded.txt')
    const script = `
      const { generateState } = await import(${JSON.stringify(GENERATE)})
      const state = generateState({ fixtures: { organizations: [{ id: 'org_1', name: 'Acme' }], users: [] }, seed: 7, usersPerOrganization: 3 })
      console.log(state.users.length)`
    const run = await execa('node', ['--input-type=module', '-e', script], {
      env: { NODE_OPTIONS: `--import=${RECORDER}`, RECORD_LOADED_MODULES: record },
      reject: false,
    })
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('3')
    const fakerFiles = readFileSync(record, 'utf8')
      .split('\n')
      .filter((url) => url.includes('/@faker-js/faker/dist/'))
      .map((url) => url.slice(url.indexOf('/dist/') + '/dist/'.length))
    expect(fakerFiles).toContain('locale/en.js')
    // The English entry point's own chunks: the Faker class with the base data, and English.
    expect(fakerFiles.filter((file) => !/^(locale\/en|base-[\w-]+|en-[\w-]+)\.js$/.test(file))).toEqual([])
  })
})
