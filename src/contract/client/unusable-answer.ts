import type { SentenceId } from '../rules/contract-sentences.js'
import type { Finding } from './contract-violation.js'
import { escapeControlCharacters } from '../../text/escape-control-characters.js'
import { mediaTypeOf, type Exchange } from './exchange.js'
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../text/json-depth.js'

interface Unusable {
  check: UnusableAnswerCheck
  /** What came, for people: `302, a redirect to http://…, not followed`. */
  received: string
  documented: string
}

/**
 * An answer that is not the users API's at all, so that no response check can say anything useful
 * about it: a redirect (the client never follows one) or an HTML page (a web server or a proxy in
 * front answered). One finding that says so, instead of a dozen that each see a symptom.
 *
 * @example
 * findUnusableAnswer(exchange) // { check: 'no-redirects', message: 'Received: 302, a redirect to http://…', … }
 */
export function findUnusableAnswer(exchange: Exchange): Finding | undefined {
  const unusable = readUnusable(exchange)
  if (!unusable) return undefined
  const { check, received, documented } = unusable
  return { check: check.name, rule: check.rule, message: `Received: ${received}\nDocumented: ${documented}` }
}

/** What an unusable answer is, in a few words (`200 text/html, an HTML page … instead of JSON`), else undefined. */
export function describeUnusableAnswer(exchange: Exchange): string | undefined {
  return readUnusable(exchange)?.received
}

function readUnusable(exchange: Exchange): Unusable | undefined {
  return readRefusedBody(exchange) ?? readRedirect(exchange) ?? readHtmlPage(exchange)
}

/** A check an unusable answer fails; `sentences`: the sentences of docs/contract.md it holds, if any. */
export interface UnusableAnswerCheck {
  name: string
  rule: string
  sentences: readonly SentenceId[]
}

const CHECKS = {
  size: {
    name: 'bounded-response',
    rule: 'Every answer ends within --max-response-bytes (default 1 MiB, counted after decompression)',
    sentences: [],
  },
  values: { name: 'bounded-json', rule: `JSON answers hold at most ${MAX_JSON_VALUES} values`, sentences: [] },
  depth: {
    name: 'bounded-json',
    rule: `JSON answers nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep`,
    sentences: [],
  },
  redirects: {
    name: 'no-redirects',
    rule: 'The API answers every request itself: a redirect (3xx) is never followed, and is a failure',
    sentences: [],
  },
  json: {
    name: 'answers-json',
    rule: 'The API answers JSON (application/json, application/problem+json), never an HTML page',
    sentences: ['§4.json'],
  },
} as const satisfies Record<string, UnusableAnswerCheck>

/** The check an exchange with no answer at all fails (no connection, a reset, the timeout). */
export const SERVER_ANSWERS = {
  name: 'server-answers',
  rule: 'The server answers every request over HTTP within the timeout',
} as const

/** Every check an unusable answer fails, each name once: a report lists each, failed or not. */
export const UNUSABLE_ANSWER_CHECKS: readonly UnusableAnswerCheck[] = [
  ...new Map(Object.values(CHECKS).map((check) => [check.name, check])).values(),
]

/** The limits of http/response-limits.ts and text/json-depth.ts: an answer past them is the target's fault, and nothing else is judged. */
function readRefusedBody({ response }: Exchange): Unusable | undefined {
  const refused = response.refused
  if (!refused) return undefined
  const received = `${response.status} ${mediaTypeOf(response) ?? '(no content type)'}, ${refused.reason}`
  if (refused.limit === 'size') {
    return {
      check: CHECKS.size,
      received,
      documented: "a users API's answers: a page of at most 100 users, a few tens of KiB",
    }
  }
  if (refused.limit === 'values') {
    return {
      check: CHECKS.values,
      received,
      documented: "a users API's answers: a page of at most 100 users, about 1,000 values",
    }
  }
  return {
    check: CHECKS.depth,
    received,
    documented: "a users API's answers, which nest 3 levels at most",
  }
}

/** 304 Not Modified is no redirect, and the suite sends no conditional request that would earn one. */
const REDIRECTS = [301, 302, 303, 307, 308]

function readRedirect({ request, response }: Exchange): Unusable | undefined {
  const location = response.headers.location
  if (!REDIRECTS.includes(response.status) && !(response.status >= 300 && response.status < 400 && location)) return
  const to = location === undefined ? undefined : new URL(location, request.url).href
  const where = to === undefined ? 'with no Location' : to === request.url ? `to itself, ${to} (a loop)` : `to ${to}`
  return {
    check: CHECKS.redirects,
    received: `${response.status}, a redirect ${where}, not followed`,
    documented: "no 3xx for any operation. Is the target's baseUrl the API's own (scheme, host, port, path prefix)?",
  }
}

function readHtmlPage({ response }: Exchange): Unusable | undefined {
  const mediaType = mediaTypeOf(response)
  const looksLikeHtml = /^\s*<(!doctype html|html)\b/i.test(response.text)
  if (mediaType !== 'text/html' && mediaType !== 'application/xhtml+xml' && !looksLikeHtml) return
  const title = /<title[^>]{0,200}>([^<]{0,1000})<\/title>/i.exec(response.text)?.[1]?.trim()
  // A title is the server's text: escaped, so that it cannot start a line of the report or drive a terminal.
  const page = title ? `an HTML page titled "${escapeControlCharacters(title)}"` : 'an HTML page'
  return {
    check: CHECKS.json,
    received: `${response.status} ${mediaType ?? '(no content type)'}, ${page} instead of JSON: something else answered (a web server, a proxy in front of a backend that is down?)`,
    documented: 'application/json or application/problem+json',
  }
}
