import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { stampDist, whyDistIsStale } from '../../scripts/build-fingerprint.js'

// `npm run build` skips its work when dist/ is what it made of the sources as they are (scripts/build.ts): a
// kit installed from git was built twice by npm, a clone built by npm ci twice more by npm start or npm test.
// It must not skip when anything it reads changed, or when dist/ itself was changed: each case here, on a
// small tree of the same shape (the real build and its install from git run in install-routes).

let root: string

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true })
  await writeFile(join(root, path), text)
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'build-fingerprint-'))
  await put('src/errors.ts', 'export class AppError extends Error {}\n')
  await put('contract-tests/users.contract.test.ts', "test('x', () => {})\n")
  await put('openapi/users.yaml', 'openapi: 3.1.0\n')
  await put('package.json', '{"name":"users-api-kit"}\n')
  await put('node_modules/.package-lock.json', '{"packages":{"node_modules/esbuild":{"version":"0.28.2"}}}\n')
  await put('dist/errors.js', 'export class AppError extends Error {}\n')
  await stampDist(root)
})

afterEach(() => rm(root, { recursive: true, force: true }))

test('the same sources and the same dist/: skipped, even when a source was only touched', async () => {
  expect(await whyDistIsStale(root)).toBeUndefined()
  await utimes(join(root, 'src/errors.ts'), new Date(), new Date(Date.now() + 60_000))
  expect(await whyDistIsStale(root)).toBeUndefined()
})

test.each([
  ['a source changed', () => put('src/errors.ts', 'export class AppError extends Error { code = 1 }\n')],
  ['a source added', () => put('src/new-module.ts', 'export {}\n')],
  ['a scenario of the suite changed', () => put('contract-tests/users.contract.test.ts', "test('y', () => {})\n")],
  ['the document changed', () => put('openapi/users.yaml', 'openapi: 3.1.1\n')],
  ['a build tool of another version installed', () => put('node_modules/.package-lock.json', '{"esbuild":"0.29.0"}\n')],
  ['package.json changed', () => put('package.json', '{"name":"users-api-kit","type":"module"}\n')],
])('%s: built again', async (_case, change) => {
  await change()
  expect(await whyDistIsStale(root)).toBe('the sources changed since dist/ was built')
})

test.each([
  ['a file of dist/ removed', () => rm(join(root, 'dist/errors.js'))],
  ['a file of dist/ changed', () => put('dist/errors.js', 'export {}\n')],
  ['a file added to dist/', () => put('dist/left-over.js', 'export {}\n')],
])('%s: built again', async (_case, change) => {
  await change()
  expect(await whyDistIsStale(root)).toBe('dist/ changed since it was built')
})

test('no dist/, or no record of the build that made it: built', async () => {
  await rm(join(root, 'node_modules/.cache'), { recursive: true })
  expect(await whyDistIsStale(root)).toBe('no record of the build that made dist/')
  await rm(join(root, 'dist'), { recursive: true })
  expect(await whyDistIsStale(root)).toBe('dist/ is not built')
})
