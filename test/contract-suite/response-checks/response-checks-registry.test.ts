import { readdirSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { RESPONSE_CHECKS } from '../../../src/contract/checks/index.js'

const CHECKS_DIRECTORY = new URL('../../../src/contract/checks', import.meta.url)
const NOT_CHECKS = ['index.ts', 'define-check.ts', 'describe-value.ts']

describe('RESPONSE_CHECKS', () => {
  test('registers every check file of src/contract/checks, each named after its file', () => {
    const files = readdirSync(CHECKS_DIRECTORY).filter((file) => file.endsWith('.ts') && !NOT_CHECKS.includes(file))
    expect(RESPONSE_CHECKS.map((check) => `${check.name}.ts`).sort()).toEqual(files.sort())
  })

  test('lists the core checks first', () => {
    const layers = RESPONSE_CHECKS.map((check) => check.layer)
    expect(layers).toEqual([...layers].sort())
    expect(layers).toContain('core')
    expect(layers).toContain('profile')
  })

  test('every check states its rule', () => {
    for (const check of RESPONSE_CHECKS) expect(check.rule.length, check.name).toBeGreaterThan(20)
  })
})
