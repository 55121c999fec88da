import type { SentenceId } from './contract-sentences.js'
import type { Role } from '../../spec/roles.js'

/**
 * CONTRACT §3, "Who may do what", as data: the contract suite derives the answers its permission checks
 * expect from it, and the proxy judges the 2xx answers it sees by it. `own`: only on oneself;
 * `not-owner`: on anyone but a CLIENT_OWNER. The rules for everyone (nobody changes their own role or
 * status, nobody deletes themselves, admins never grant CLIENT_OWNER) are in `decidePermission`.
 */
export type Grant = 'yes' | 'own' | 'not-owner' | 'no'
export type Action = 'list' | 'read' | 'rename' | 'change-role-or-status' | 'delete'

// prettier-ignore
const PERMISSION_TABLE: Record<Role, Record<Action, Grant>> = {
  CLIENT_OWNER:  { list: 'yes', read: 'yes', rename: 'yes',       'change-role-or-status': 'yes',       delete: 'yes' },
  CLIENT_ADMIN:  { list: 'yes', read: 'yes', rename: 'not-owner', 'change-role-or-status': 'not-owner', delete: 'not-owner' },
  CLIENT_VIEWER: { list: 'yes', read: 'yes', rename: 'own',       'change-role-or-status': 'no',        delete: 'no' },
  BOT_USER:      { list: 'no',  read: 'own', rename: 'own',       'change-role-or-status': 'no',        delete: 'no' },
}

/** One request, as the table reads it. */
export type PermissionRequest =
  | { operation: 'list'; caller: Role }
  | { operation: 'read'; caller: Role; self: boolean; target?: Role }
  | { operation: 'delete'; caller: Role; self: boolean; target?: Role }
  | { operation: 'update'; caller: Role; self: boolean; target?: Role; patch: PatchKeys }

/** The keys of a PATCH body the table looks at. */
export interface PatchKeys {
  name?: unknown
  role?: unknown
  status?: unknown
}

/**
 * What the table says of a request: `allowed` or `refused` (403), with the sentence of docs/contract.md
 * that says so, or `unknown` when the answer depends on the target's role and that is not known.
 */
export interface PermissionVerdict {
  verdict: 'allowed' | 'refused' | 'unknown'
  sentence: SentenceId
}

/**
 * Whether §3 lets a caller of a role make a request: the table's row, then the rules for everyone. The
 * target's role matters only where an admin acts on someone else (`not-owner`).
 *
 * @example
 * decidePermission({ operation: 'update', caller: 'CLIENT_VIEWER', self: false, patch: { name: 'Ada' } })
 * // { verdict: 'refused', sentence: '§3.name.refuses' }
 */
export function decidePermission(request: PermissionRequest): PermissionVerdict {
  const { caller } = request
  if (request.operation === 'list') return judge(caller, 'list', true, undefined, '§3.list')
  if (request.operation === 'read') return judge(caller, 'read', request.self, request.target, '§3.read')
  if (request.operation === 'delete') {
    if (request.self) return { verdict: 'refused', sentence: '§3.self.delete' }
    return judge(caller, 'delete', false, request.target, '§3.delete')
  }
  const { patch, self, target } = request
  const changesRoleOrStatus = 'role' in patch || 'status' in patch
  // CONTRACT §3: a PATCH of oneself with a role or status key is 403, even to the value already stored.
  if (self && changesRoleOrStatus) return { verdict: 'refused', sentence: '§3.self.role-status' }
  const verdicts: PermissionVerdict[] = []
  if ('name' in patch) verdicts.push(judge(caller, 'rename', self, target, '§3.name'))
  if (changesRoleOrStatus) {
    verdicts.push(judge(caller, 'change-role-or-status', self, target, '§3.role-status'))
    if (patch.role === 'CLIENT_OWNER' && caller !== 'CLIENT_OWNER')
      verdicts.push({ verdict: 'refused', sentence: '§3.role-status.refuses' })
  }
  return (
    verdicts.find((one) => one.verdict === 'refused') ??
    verdicts.find((one) => one.verdict === 'unknown') ??
    verdicts[0] ?? { verdict: 'allowed', sentence: '§3.name.allows' }
  )
}

type Row = '§3.list' | '§3.read' | '§3.name' | '§3.role-status' | '§3.delete'

function judge(caller: Role, action: Action, self: boolean, target: Role | undefined, row: Row): PermissionVerdict {
  const allowed = { verdict: 'allowed', sentence: `${row}.allows` } as const
  const refused = { verdict: 'refused', sentence: `${row}.refuses` } as const
  const grant = PERMISSION_TABLE[caller][action]
  if (grant === 'yes') return allowed
  if (grant === 'no') return refused
  if (grant === 'own') return self ? allowed : refused
  // not-owner: oneself is no owner here (only an admin's row says not-owner); another, by their role.
  if (self) return allowed
  if (target === undefined) return { verdict: 'unknown', sentence: refused.sentence }
  return target === 'CLIENT_OWNER' ? refused : allowed
}
