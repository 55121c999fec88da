import type { Mutant } from './mutants/mutant.js'
import { USER_RESOURCE_MUTANTS } from './mutants/user-resource.js'
import { AUTHENTICATION_MUTANTS } from './mutants/authentication.js'
import { PERMISSIONS_MUTANTS } from './mutants/permissions.js'
import { TENANT_ISOLATION_MUTANTS } from './mutants/tenant-isolation.js'
import { LIST_USERS_MUTANTS } from './mutants/list-users.js'
import { GET_USER_MUTANTS } from './mutants/get-user.js'
import { UPDATE_USER_MUTANTS } from './mutants/update-user.js'
import { DELETE_USER_MUTANTS } from './mutants/delete-user.js'
import { ERRORS_AND_ORDER_OF_CHECKS_MUTANTS } from './mutants/errors-and-order-of-checks.js'
import { WEBHOOKS_MUTANTS } from './mutants/webhooks.js'

export type { Mutant } from './mutants/mutant.js'

/**
 * The deliberately broken implementations of the users API, one rule broken each, one per rule family of
 * the contract at least: a module of mutants/ for each section of the contract, in the contract's order.
 * The kill rate (test/contract-suite/contract-suite-kill-rate.test.ts), the tests that pick one by name and the docs'
 * count (scripts/generate-doc-figures.ts) all read this one list.
 */
export const MUTANTS: Mutant[] = [
  ...USER_RESOURCE_MUTANTS,
  ...AUTHENTICATION_MUTANTS,
  ...PERMISSIONS_MUTANTS,
  ...TENANT_ISOLATION_MUTANTS,
  ...LIST_USERS_MUTANTS,
  ...GET_USER_MUTANTS,
  ...UPDATE_USER_MUTANTS,
  ...DELETE_USER_MUTANTS,
  ...ERRORS_AND_ORDER_OF_CHECKS_MUTANTS,
  ...WEBHOOKS_MUTANTS,
]
