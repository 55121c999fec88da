import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { measureFigures, renderDocFigures, type Figures } from '../../scripts/generate-doc-figures.js'
import { ROOT } from '../support/cli-mock-process.js'

// The counts and sizes the docs state come from the code (scripts/generate-doc-figures.ts): the number of
// checks, of broken servers, of disposable users, the MSW example's bundle sizes. None is typed by hand.

let figures: Figures
let rendered: Awaited<ReturnType<typeof renderDocFigures>>

beforeAll(async () => {
  // vitest collects the suite (no request is sent) and esbuild bundles the example: a few seconds.
  figures = await measureFigures()
  rendered = await renderDocFigures(figures)
}, 60_000)

test('every place a figure is stated still states it (a rephrased sentence takes its pattern along)', () => {
  expect(rendered.lost).toEqual([])
})

test('every figure the docs state is the one the code has: npm run docs:figures rewrites them', async () => {
  const stale: string[] = []
  for (const [page, text] of rendered.pages) {
    if (text !== (await readFile(join(ROOT, page), 'utf8'))) stale.push(page)
  }
  expect(stale, 'stale figures: run npm run docs:figures').toEqual([])
})

test('the figures are measured, not zero: the suite was collected and the example bundled', () => {
  expect(figures.checks).toBeGreaterThan(300)
  expect(figures.checksPerFile.size).toBeGreaterThan(10)
  expect(figures.brokenServers).toBeGreaterThan(50)
  // Split, the page holds neither msw nor faker; as one file, it holds both.
  expect(figures.mswBundle.page).toBeLessThan(5)
  expect(figures.mswBundle.faker).toBeGreaterThan(50)
  expect(figures.mswBundle.single).toBeGreaterThan(figures.mswBundle.faker + figures.mswBundle.page)
})
