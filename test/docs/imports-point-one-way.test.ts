import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import {
  findImportCycles,
  findUpwardImports,
  readImportGraph,
  roomOf,
  roomsBelow,
  type ImportGraph,
  type RoomPlan,
} from '../support/import-graph.js'

// The house of src/ is one-way (../shared/STYLE.md, "Which way dependencies point"; docs/development.md):
// each room imports only rooms below it, and no module comes back to itself through its imports.

/**
 * The lowest rooms, which every room may import; among themselves, each only those it names. The document's
 * types are generated from openapi/users.yaml (`npm run types:generate`) and import nothing: errors.ts takes
 * its error codes from them.
 */
const LOWEST: RoomPlan = {
  'spec/users-api.ts': [],
  'errors.ts': ['spec/users-api.ts'],
  text: [],
  streams: [],
  http: ['streams', 'text'],
  files: ['errors.ts'],
  'supported-node.ts': [],
  'require-supported-node.ts': ['supported-node.ts'],
}

/**
 * The rooms above them and the rooms each stands on directly, as STYLE.md's diagram draws them: the mock's
 * side (spec ← domain ← engine ← transports) and verify's (contract/, by concern), which never meet below
 * cli/. Inside contract/: the contract's rules, the client that sends and judges, the response checks, the
 * target, the suite's files and names, the reports, and the run on top.
 */
const ABOVE: RoomPlan = {
  spec: [],
  domain: ['spec'],
  seed: ['domain'],
  engine: ['domain'],
  webhooks: ['domain'],
  target: ['spec'],
  'mock-instance': ['engine', 'seed', 'webhooks', 'target'],
  server: ['mock-instance'],
  fetch: ['mock-instance'],
  msw: ['fetch'],
  'index.ts': ['server', 'fetch'],
  'esm-only.cts': [],
  'contract/rules': ['spec'],
  'contract/client': ['contract/rules'],
  'contract/checks': ['contract/client'],
  'contract/target': ['contract/client', 'target'],
  'contract/suite': [],
  'contract/report': ['contract/client', 'contract/suite'],
  'contract/run': ['contract/report', 'contract/target', 'contract/suite'],
  fuzz: ['contract/target'],
  proxy: ['contract/checks', 'contract/report'],
  cli: ['index.ts', 'msw', 'contract/run', 'fuzz', 'proxy'],
}

const PLAN: RoomPlan = {
  ...LOWEST,
  ...Object.fromEntries(Object.entries(ABOVE).map(([room, below]) => [room, [...below, ...Object.keys(LOWEST)]])),
}

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))
const graph = readImportGraph(SRC)

function describeCircle(circle: string[]): string {
  return circle.join(' → ')
}

describe('the modules of src/', () => {
  test('no module imports itself back, through however many others', () => {
    expect(findImportCycles(graph).map(describeCircle)).toEqual([])
  })

  test('each lives in a room of the plan (a new folder is placed in it, above what it imports)', () => {
    expect([...graph.keys()].filter((module) => roomOf(PLAN, module) === undefined)).toEqual([])
  })

  test('no room imports a room above it, or beside it', () => {
    const upward = findUpwardImports(graph, PLAN).map(
      ({ from, to, fromRoom, toRoom }) => `${from} → ${to} (${fromRoom} may not import ${toRoom})`,
    )
    expect(upward).toEqual([])
  })
})

describe('the plan and its reading', () => {
  test('the plan goes one way: no room is below itself', () => {
    for (const room of Object.keys(PLAN)) expect(roomsBelow(PLAN, room).has(room), room).toBe(false)
  })

  test("the mock's side and verify's meet in cli/ alone (STYLE.md: contract/ never imports domain/ or the mock)", () => {
    for (const room of ['contract/run', 'fuzz', 'proxy']) {
      expect(roomsBelow(PLAN, room)).not.toContain('domain')
      expect(roomsBelow(PLAN, room)).not.toContain('mock-instance')
    }
    for (const room of ['server', 'fetch', 'msw']) expect(roomsBelow(PLAN, room)).not.toContain('contract/client')
  })

  test('a circle of imports is found, however long, and named module by module', () => {
    const circular: ImportGraph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ])
    expect(findImportCycles(circular).map(describeCircle)).toEqual(['a.ts → b.ts → c.ts → a.ts', 'e.ts → e.ts'])
    expect(
      findImportCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([])
  })

  test('an import up, or across to a room the plan does not put below, is found; one down is not', () => {
    const plan: RoomPlan = { low: [], middle: ['low'], top: ['middle'], side: ['low'] }
    const houses: ImportGraph = new Map([
      ['low/a.ts', ['middle/b.ts']],
      ['middle/b.ts', ['low/a.ts', 'side/d.ts']],
      ['top/c.ts', ['low/a.ts', 'top/e.ts']],
      ['top/e.ts', []],
    ])
    expect(findUpwardImports(houses, plan).map(({ from, to }) => `${from} → ${to}`)).toEqual([
      'low/a.ts → middle/b.ts',
      'middle/b.ts → side/d.ts',
    ])
    expect(roomOf(plan, 'low/a.ts')).toBe('low')
    expect(roomOf({ spec: [], 'spec/users-api.ts': [] }, 'spec/users-api.ts')).toBe('spec/users-api.ts')
  })
})
