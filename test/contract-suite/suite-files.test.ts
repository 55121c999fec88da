import { expect, test } from 'vitest'
import { BUILT_SUITE_DIR, SOURCE_SUITE_DIR, withSourceNames } from '../../src/contract/suite/suite-files.js'

// verify runs the suite as built JavaScript (dist/contract-tests/); its reports name the sources a reader opens.

test('a built file is named by its source, by path and alone (JUnit names files relative to the suite)', () => {
  expect(withSourceNames(`at ${BUILT_SUITE_DIR}get-user.contract.test.js:12`)).toBe(
    `at ${SOURCE_SUITE_DIR}get-user.contract.test.ts:12`,
  )
  expect(withSourceNames('<testsuite name="users-api-kit verify: list-users.contract.test.js">')).toBe(
    '<testsuite name="users-api-kit verify: list-users.contract.test.ts">',
  )
  expect(withSourceNames('a-chunk-1234.js and support.js')).toBe('a-chunk-1234.js and support.js')
})
