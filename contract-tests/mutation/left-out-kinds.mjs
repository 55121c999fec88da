// @ts-check

const SPEED = 'A choice of speed, not of answers: '
const KILLED = " (the line's other variants are killed)"
const TESTED = " (the line's other variants are tested)"
const REUSED_RANK =
  "Reusing a deleted user's rank or inserting a new one gives the same lists; the users API adds nobody after a deletion."

/**
 * Variants of some kinds on one line, where the line's other variants are tested: what a name or a statement of
 * left-out-mutants.mjs cannot say, as it leaves out every variant inside its node. A line is named by how it begins (trimmed),
 * once in its file. The plugin hands each to Stryker as the `Stryker disable next-line MUTATORS: reason`
 * directive it would read before that line, attached while the file is instrumented: the code carries no mark.
 */
export const LEFT_OUT_KINDS = [
  {
    file: 'src/spec/path-templates.ts',
    line: "return segment.startsWith('{') && segment.endsWith('}')",
    mutators: ['LogicalOperator', 'StringLiteral'],
    reason: 'No template of the document has a brace but around a parameter.',
  },
  {
    file: 'src/engine/validate-request.ts',
    line: 'if (value === MALFORMED) issues.push(',
    mutators: ['ConditionalExpression'],
    reason: `Without it the path schema refuses the id just the same (400 /id)${KILLED}.`,
  },
  {
    file: 'src/engine/validate-request.ts',
    line: 'if (operation.validate.path && issues.length === 0)',
    mutators: ['ConditionalExpression'],
    reason: `Validating a malformed id's path again adds an issue at /id beside the first${KILLED}.`,
  },
  {
    file: 'src/engine/validate-request.ts',
    line: 'if (!Number.isSafeInteger(number))',
    mutators: ['ConditionalExpression'],
    reason: `The document's maximum (2^53 − 1) refuses the same values (400)${KILLED}.`,
  },
  {
    file: 'src/engine/user-json.ts',
    line: 'texts.set(user, { updatedAt: user.updatedAt, json })',
    mutators: ['ObjectLiteral', 'CallExpression'],
    reason: 'A cache: without it, the same text, later.',
  },
  {
    file: 'src/http/request-target.ts',
    line: 'const query = queryStart === -1',
    mutators: ['UnaryOperator'],
    reason: "Without a '?', whatever is read is unknown parameters, which are ignored.",
  },
  {
    file: 'src/http/request-target.ts',
    line: "return { path: path.startsWith('/')",
    mutators: ['StringLiteral'],
    reason: 'Origin-form targets always start with /.',
  },
  {
    file: 'src/engine/bearer-token.ts',
    line: 'const match = /^Bearer(?:[ ]+(.*))?$/i.exec(',
    mutators: ['Regex'],
    reason: `\`$\` after \`.*\`, or one space for \`[ ]+\` before a group that is trimmed, read the same${KILLED}.`,
  },
  {
    file: 'src/domain/member-index/member-index-changes.ts',
    line: 'return { user, role: user.role, lowerName:',
    mutators: ['UnaryOperator'],
    reason: 'The rank is set when the member is filed, before anything reads it.',
  },
  {
    file: 'src/domain/member-index/ngram-index.ts',
    line: 'if (ranks?.delete(rank) && ranks.length === 0)',
    mutators: ['CallExpression'],
    reason: `${SPEED}an empty list and no list both answer no match.`,
  },
  {
    file: 'src/domain/member-index/member-index.ts',
    line: "if (term === '' && role === undefined) {",
    mutators: ['StringLiteral', 'BlockStatement'],
    reason: `${SPEED}the shortcut gives what select() gives.`,
  },
  {
    file: 'src/domain/member-index/member-index.ts',
    line: 'if (withRole !== undefined && withRole.length * SUBSTRING_CHECK_COST < candidates.length) {',
    mutators: ['ArithmeticOperator', 'BlockStatement'],
    reason: `${SPEED}both lists hold every match, and collect() checks each${TESTED}.`,
  },
  {
    file: 'src/domain/member-index/member-index.ts',
    line: 'const users = new Array<User>(view.length)',
    mutators: ['ArrayDeclaration'],
    reason: `${SPEED}the array is cut to length below.`,
  },
  {
    file: 'src/domain/member-index/member-index.ts',
    line: 'let hasChanged = false',
    mutators: ['BooleanLiteral'],
    reason: `${SPEED}the memo dropped once more.`,
  },
  {
    file: 'src/domain/member-index/member-index-filing.ts',
    line: 'if (before.lowerName === after.lowerName && before.lowerEmail === after.lowerEmail) {',
    mutators: ['BlockStatement'],
    reason: `${SPEED}grams removed and added back leave the lists as they were, and emails never change${TESTED}.`,
  },
  {
    file: 'src/domain/member-index/member-index-filing.ts',
    line: 'const added = [...newGrams].filter(',
    mutators: ['MethodExpression'],
    reason: `${SPEED}adding a rank a list holds changes nothing.`,
  },
  {
    file: 'src/domain/member-index/member-index-filing.ts',
    line: 'for (const rank of [position, position - 1]) {',
    mutators: ['ArrayDeclaration', 'BlockStatement'],
    reason: REUSED_RANK,
  },
  {
    file: 'src/domain/member-index/member-index-filing.ts',
    line: 'if (rank >= 0 && this.#members[rank] === undefined) {',
    mutators: ['all'],
    reason: REUSED_RANK.replace(/\.$/, KILLED + '.'),
  },
  {
    file: 'src/domain/member-index/member-index-filing.ts',
    line: 'this.#deletedCount--',
    mutators: ['all'],
    reason: REUSED_RANK,
  },
]

/**
 * The line numbers (from 1) of a file's code that begin, trimmed, with `start`.
 * @param {string} code @param {string} start @returns {number[]}
 */
export function linesBeginning(code, start) {
  // Babel's line breaks, so that the numbers are the ones its nodes carry.
  return code
    .split(/\r\n?|[\n\u2028\u2029]/)
    .flatMap((text, index) => (text.trim().startsWith(start) ? [index + 1] : []))
}
