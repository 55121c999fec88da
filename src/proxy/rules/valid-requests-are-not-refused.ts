import type { SentenceId } from '../../contract/rules/contract-sentences.js'
import { requestHeaderOf } from '../../contract/client/exchange.js'
import { BODY_LIMIT } from '../../spec/contract-limits.js'
import { operationOf, statusOf, type ObservedExchange } from '../observed-exchange.js'
import { defineRule, found } from './define-rule.js'

/** The steps of §3's order a request fails by itself: 413, 415, 400 (steps 3 to 5). */
const REFUSED_BY_ITSELF = [400, 413, 415]

/** What a correct backend may answer each operation once steps 2 to 5 pass (401 for a refused token aside). */
const OWN_ANSWERS: Record<string, string> = {
  listUsers: '200 (403 for a bot)',
  getCurrentUser: '200',
  getUser: '200, 404 or 403',
  updateUser: '200, 404, 403 or 409',
  deleteUser: '204, 404 or 403',
}

/** The list's parameters and their sentences (docs/contract.md §4). */
const LIST_PARAMETERS: Record<string, SentenceId> = {
  page: '§4.list.page',
  limit: '§4.list.limit',
  role: '§4.list.role',
  search: '§4.list.search',
}

export const validRequestsAreNotRefused = defineRule({
  name: 'valid-requests-are-not-refused',
  rule: "A request that breaks no rule of steps 2 to 5 of §3's order is never answered 400, 413 or 415: 401 if its token is refused, else the operation's own answer (docs/contract.md §3, §4)",
  observe(observed) {
    const status = statusOf(observed)
    const operation = operationOf(observed)
    // `valid`: the proxy read the whole request, promptly, and the contract leaves nothing of it open.
    if (!observed.valid || !REFUSED_BY_ITSELF.includes(status) || operation === undefined) return []
    const reading = readRequest(observed, operation, status)
    if (!reading) return []
    const sentences: readonly SentenceId[] = reading.sentences.length > 0 ? reading.sentences : ['§3.order']
    return found(
      sentences,
      `Received: ${status} for ${observed.exchange.request.method} ${target(observed)}\nExpected: ${OWN_ANSWERS[operation] ?? "the operation's own answer"}, or 401 if the token is refused: the proxy read the whole request, and ${reading.notes.join('; ')}`,
    )
  },
})

interface Reading {
  /** What the proxy saw that makes the request valid, for people. */
  notes: string[]
  /** The sentences the answer breaks. */
  sentences: SentenceId[]
}

/**
 * Why the request is valid, part by part, and the sentences a refusal of it breaks; undefined where a
 * part's reading is one the contract leaves room for (a Content-Type parameter other than charset=utf-8).
 */
function readRequest(observed: ObservedExchange, operation: string, status: number): Reading | undefined {
  const notes: string[] = []
  const sentences: SentenceId[] = []
  const bytes = observed.requestBytes
  notes.push(bytes === 0 ? 'it has no body' : `its body of ${bytes} bytes is within 16 KiB (${BODY_LIMIT} bytes)`)
  if (status === 413) sentences.push('§4.bodies.413')
  const contentType = requestHeaderOf(observed.exchange.request, 'content-type')
  if (operation === 'updateUser') {
    // §4 names charset=utf-8; another parameter is a reading the contract does not spell out.
    if (!isPlainJson(contentType)) return undefined
    notes.push(`its Content-Type ${JSON.stringify(contentType)} is application/json (compared case-insensitively)`)
    notes.push("its body is a JSON object of the document's PATCH schema")
    if (status === 415) sentences.push('§4.patch.415')
    if (status === 415 && contentType !== 'application/json') sentences.push('§4.patch.media-type-case')
    if (status === 400) sentences.push('§4.patch.body')
  } else if (bytes > 0 || contentType !== undefined) {
    notes.push('this operation ignores a body within 16 KiB, and its Content-Type and Content-Encoding')
    if (status !== 413) sentences.push('§4.bodies.ignored')
  }
  if (observed.userId !== undefined) {
    notes.push(
      `its id of ${[...observed.userId].length} characters is validly percent-encoded (any such id is a user's or a 404)`,
    )
    if (status === 400) sentences.push('§3.other-ids')
  }
  if (operation === 'listUsers') readListQuery(observed.query, notes, status === 400 ? sentences : [])
  return { notes, sentences }
}

/** The list's query: each parameter given, in its range; the unknown ones ignored. */
function readListQuery(query: URLSearchParams, notes: string[], sentences: SentenceId[]): void {
  const unknown = new Set<string>()
  for (const [name, value] of query) {
    const sentence = LIST_PARAMETERS[name]
    if (!sentence) {
      unknown.add(name)
      continue
    }
    sentences.push(sentence)
    if (name === 'search') notes.push(`search is ${[...value].length} characters (code points; at most 100)`)
    else if (name === 'role') notes.push(`role=${value} is a role`)
    else {
      notes.push(`${name}=${value} is ${Number(value)}, in its range`)
      if (/^0\d/.test(value)) sentences.push('§4.list.decimal')
    }
  }
  if (unknown.size > 0) {
    notes.push(`the parameters it does not know (${[...unknown].join(', ')}) are ignored`)
    sentences.push('§4.list.unknown-params')
  }
}

/** application/json, in any case, with no parameter or charset=utf-8 alone (docs/contract.md §4). */
function isPlainJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false
  const [type = '', ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase())
  if (type !== 'application/json') return false
  return parameters.every((parameter) => /^charset\s*=\s*"?utf-8"?$/.test(parameter))
}

/** The path and the query as the client wrote them. */
function target(observed: ObservedExchange): string {
  const query = observed.exchange.request.url.indexOf('?')
  return `${observed.path}${query === -1 ? '' : observed.exchange.request.url.slice(query)}`
}
