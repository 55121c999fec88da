// @ts-check
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin'
import { LEFT_OUT_KINDS, linesBeginning } from './left-out-kinds.mjs'

/**
 * What `npm run mutation` leaves out, and why, in the tool's setup rather than as marks in the code:
 * every mutant inside a node named here (or inside the message of an `AppError`) is reported as ignored,
 * with the reason. A name is a declaration of the file (a function, a method or getter, a variable, a
 * class), `outer/inner` for a variable inside a function, `name()` for a statement calling it, and
 * `this.name` for a statement that updates that field. `statements` names a statement by how its source
 * begins, for an equivalence no name holds (every variant inside it gives the same answers).
 * test/contract-suite/left-out-mutants.test.ts checks that each name and statement is still there, so a rename cannot
 * widen what is tested without notice. Variants of some kinds on one line: left-out-kinds.mjs.
 */
export const LEFT_OUT = [
  {
    reason: 'The wording of a detail: docs/contract.md §5 asks for a non-empty one, which the rest of it keeps.',
    names: {
      'src/engine/validation-issues.ts': ['PART_NAMES', 'describe', 'invalidRequest/count'],
      'src/engine/authenticate.ts': ['HINT', 'NO_TOKEN', 'withHint'],
      'src/engine/route-request.ts': ['noRoute/path', 'noRoute/routes'],
      'src/domain/permissions.ts': ['VERBS', 'REFUSALS'],
      'src/domain/user-store.ts': ['UNKNOWN_TOKEN', 'inactiveToken'],
    },
  },
  {
    reason:
      "The mock's own: its simulations (docs/contract.md §7), its control routes and state file, its log, " +
      'targets in absolute form (MSW, proxies), paths outside /api, a base path (the fetch handler mounted under ' +
      'one); not the users API, which the suite checks. ' +
      'Their tests are in test/.',
    names: {
      'src/engine/handle-request.ts': [
        'createEngine/conditions',
        'failAsAsked()',
        'assertUnderApi',
        'assertUnderApi()',
        'reportUnexpected',
        'reportUnexpected()',
      ],
      'src/engine/problems.ts': ['codeForStatus'],
      'src/spec/path-templates.ts': ['isUnderApi'],
      'src/http/request-target.ts': ['splitTarget/target', 'isUnderPath'],
      'src/domain/user-store.ts': ['revision', 'tokens', 'tokenHolders', 'exportState', 'this.changes'],
    },
    statements: { 'src/engine/handle-request.ts': ['if (await delayAsAsked('] },
  },
  {
    reason:
      'A choice of speed, not of answers: when the member index files everyone anew rather than one change at a ' +
      'time (test/domain/member-index.test.ts holds both to a brute-force filter).',
    statements: {
      'src/domain/member-index/member-index.ts': ['if (deletedCount > REBUILD_AFTER_DELETED_MIN'],
      'src/domain/member-index/member-index-changes.ts': ['if (this.#newUsers > this.newUserLimit)'],
    },
  },
  {
    reason:
      'Reached only past 256 new users between two reads (a state import), which the contract suite never makes: ' +
      "not every variant is a choice of speed (one skips the rebuild, and the new users' search), so " +
      'test/domain/member-index.test.ts ("the first query after a bulk load") holds it.',
    statements: { 'src/domain/member-index/member-index.ts': ['if (this.#pending.overflowed)'] },
  },
  {
    reason:
      "Equivalent: a deleted user is gone from the store's members, so their token is refused (401) with or " +
      'without its entry in the map of tokens.',
    statements: { 'src/domain/user-store.ts': ['if (token !== undefined) this.userIdByToken.delete(token)'] },
  },
  {
    reason: 'A guard no request reaches: the permission table holds no other grant.',
    statements: { 'src/domain/permissions.ts': ['throw new Error(`Unknown grant'] },
  },
]

/**
 * Attaches the file's LEFT_OUT_KINDS to the first node of their lines, as the leading comment Stryker reads
 * when it enters that node (after the program, which is entered first): from then on its variants of those
 * kinds on that line are ignored, with the reason. A line no longer there, or there twice, stops the run.
 * @param {any} program the Program node's path
 */
function attachLeftOutKinds(program) {
  const file = fileOf(program)
  const code = program.hub?.file?.code
  if (file === undefined || typeof code !== 'string') return
  for (const { file: suffix, line, mutators, reason } of LEFT_OUT_KINDS) {
    if (!file.endsWith(suffix)) continue
    const numbers = linesBeginning(code, line)
    if (numbers.length !== 1)
      throw new Error(
        `left-out-mutants: ${suffix} has ${numbers.length} lines beginning ${JSON.stringify(line)}, not one`,
      )
    /** @type {any} */
    let first
    program.traverse({
      /** @param {any} inner */
      enter(inner) {
        if (inner.node.loc?.start.line !== numbers[0]) return
        first = inner.node
        inner.stop()
      },
    })
    if (first === undefined) throw new Error(`left-out-mutants: no node begins ${suffix}:${numbers[0]}`)
    const directive = { type: 'CommentLine', value: ` Stryker disable next-line ${mutators.join(',')}: ${reason}` }
    first.leadingComments = [...(first.leadingComments ?? []), { ...directive, loc: first.loc }]
  }
}

const STATEMENTS = new Set(['IfStatement', 'ExpressionStatement', 'ThrowStatement'])

/** @param {any} path @returns {string | undefined} the source of a statement, for `statements` to match */
export function statementSource(path) {
  const { node } = path
  const code = path.hub?.file?.code
  if (!STATEMENTS.has(node.type) || typeof code !== 'string' || typeof node.start !== 'number') return undefined
  return code.slice(node.start, node.end)
}

const MESSAGE_REASON =
  "An AppError's message, the detail's wording: docs/contract.md §5 asks for a non-empty one, which the rest of it keeps."

/** @param {any} path @returns {string | undefined} */
function fileOf(path) {
  const filename = path.hub?.file?.opts?.filename
  return typeof filename === 'string' ? filename.replaceAll('\\', '/') : undefined
}

/** @param {any} path @returns {string | undefined} the name this node declares, as LEFT_OUT writes it */
export function declaredName(path) {
  const node = path.node
  if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') return node.id?.name
  if ((node.type === 'ClassMethod' || node.type === 'ClassProperty') && node.key.type === 'Identifier')
    return node.key.name
  if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier') {
    const outer = path.getFunctionParent()
    if (!outer) return node.id.name
    const outerName =
      outer.node.id?.name ?? (outer.parent.type === 'VariableDeclarator' ? outer.parent.id.name : undefined)
    return `${outerName}/${node.id.name}`
  }
  if (node.type === 'ExpressionStatement') {
    let expression = node.expression
    if (expression.type === 'AwaitExpression') expression = expression.argument
    if (expression.type === 'CallExpression' && expression.callee.type === 'Identifier')
      return `${expression.callee.name}()`
    if (expression.type === 'UpdateExpression' && expression.argument.type === 'MemberExpression') {
      const { object, property } = expression.argument
      if (object.type === 'ThisExpression' && property.type === 'Identifier') return `this.${property.name}`
    }
  }
  return undefined
}

/** @param {any} path */
function isAppErrorMessage(path) {
  const parent = path.parent
  return (
    parent?.type === 'NewExpression' &&
    parent.callee.type === 'Identifier' &&
    parent.callee.name === 'AppError' &&
    parent.arguments[1] === path.node
  )
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'left-out-mutants', {
    /** @param {any} path */
    shouldIgnore(path) {
      if (path.node.type === 'Program') attachLeftOutKinds(path)
      if (isAppErrorMessage(path)) return MESSAGE_REASON
      const name = declaredName(path)
      const source = statementSource(path)
      if (name === undefined && source === undefined) return undefined
      const file = fileOf(path)
      for (const { reason, names = {}, statements = {} } of LEFT_OUT) {
        for (const [suffix, listed] of Object.entries(names)) {
          if (file !== undefined && !file.endsWith(suffix)) continue
          if (name !== undefined && listed.includes(name)) return reason
        }
        for (const [suffix, listed] of Object.entries(statements)) {
          if (file !== undefined && !file.endsWith(suffix)) continue
          if (source !== undefined && listed.some((start) => source.startsWith(start))) return reason
        }
      }
      return undefined
    },
  }),
]
