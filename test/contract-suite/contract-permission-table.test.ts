import { describe, expect, test } from 'vitest'
import { decidePermission, type PatchKeys, type PermissionRequest } from '../../src/contract/rules/permission-table.js'
import { ROLES, type Role } from '../../src/spec/roles.js'
import { assertMayDelete, assertMayList, assertMayRead, assertMayUpdate } from '../../src/domain/permissions.js'
import type { User } from '../../src/domain/user.js'
import { isAppError } from '../../src/errors.js'

// The contract's permission table (src/contract/rules/permission-table.ts: the suite's expectations and the
// proxy's judgement) and the mock's (src/domain/permissions.ts) are written apart; they must agree on
// every role, target and body, or one of them misreads docs/contract.md §3.

const PATCHES: PatchKeys[] = [
  { name: 'Ada' },
  { role: 'CLIENT_ADMIN' },
  { role: 'CLIENT_OWNER' },
  { status: 'SUSPENDED' },
  { name: 'Ada', role: 'CLIENT_VIEWER' },
]

function user(id: string, role: Role): User {
  const at = '2024-01-01T00:00:00.000Z'
  return {
    id,
    role,
    email: `${id}@acme.test`,
    name: id,
    organizationId: 'org',
    status: 'ACTIVE',
    createdAt: at,
    updatedAt: at,
  }
}

/** Whether the mock's functions let the request through (a FORBIDDEN AppError is a refusal). */
function mockAllows(run: () => void): boolean {
  try {
    run()
    return true
  } catch (error) {
    if (isAppError(error) && error.code === 'FORBIDDEN') return false
    throw error
  }
}

interface Case {
  name: string
  request: PermissionRequest
  mock: () => void
}

function cases(): Case[] {
  const all: Case[] = []
  for (const callerRole of ROLES) {
    const caller = user('caller', callerRole)
    all.push({
      name: `${callerRole} lists`,
      request: { operation: 'list', caller: callerRole },
      mock: () => assertMayList(caller),
    })
    for (const self of [true, false]) {
      for (const targetRole of self ? [callerRole] : ROLES) {
        const target = self ? caller : user('target', targetRole)
        const on = self ? 'themselves' : `a ${targetRole}`
        const common = { caller: callerRole, self, target: targetRole }
        all.push({
          name: `${callerRole} reads ${on}`,
          request: { operation: 'read', ...common },
          mock: () => assertMayRead(caller, target),
        })
        all.push({
          name: `${callerRole} deletes ${on}`,
          request: { operation: 'delete', ...common },
          mock: () => assertMayDelete(caller, target),
        })
        for (const patch of PATCHES) {
          all.push({
            name: `${callerRole} sends ${JSON.stringify(patch)} to ${on}`,
            request: { operation: 'update', ...common, patch },
            mock: () => assertMayUpdate(caller, target, patch as Parameters<typeof assertMayUpdate>[2]),
          })
        }
      }
    }
  }
  return all
}

describe("the contract's permission table", () => {
  test.each(cases().map((one) => [one.name, one] as const))('agrees with the mock: %s', (_name, { request, mock }) => {
    const { verdict } = decidePermission(request)
    expect(verdict).toBe(mockAllows(mock) ? 'allowed' : 'refused')
  })

  test("names the row's sentence, and says unknown where an admin acts on someone whose role is not known", () => {
    expect(
      decidePermission({ operation: 'update', caller: 'CLIENT_VIEWER', self: false, patch: { name: 'x' } }),
    ).toEqual({
      verdict: 'refused',
      sentence: '§3.name.refuses',
    })
    expect(decidePermission({ operation: 'delete', caller: 'CLIENT_ADMIN', self: false })).toEqual({
      verdict: 'unknown',
      sentence: '§3.delete.refuses',
    })
    expect(
      decidePermission({ operation: 'update', caller: 'CLIENT_ADMIN', self: false, patch: { role: 'CLIENT_OWNER' } }),
    ).toEqual({
      verdict: 'refused',
      sentence: '§3.role-status.refuses',
    })
    expect(decidePermission({ operation: 'delete', caller: 'CLIENT_OWNER', self: true })).toEqual({
      verdict: 'refused',
      sentence: '§3.self.delete',
    })
  })
})
