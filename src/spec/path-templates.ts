import { isHead } from '../http/methods.js'

/** A path segment that is not validly percent-encoded: it can stand for a parameter, never be a literal. */
export const MALFORMED = Symbol('malformed segment')

export type Segment = string | typeof MALFORMED

/** A path of the document, split: the router and the checks of every answer find paths through it. */
export interface PathTemplate {
  /** As the document writes it: `/api/users/{id}`. */
  path: string
  /** Literal segments as strings; parameters as their names wrapped in `{}`. */
  segments: string[]
}

export interface PathMatch {
  template: PathTemplate
  /** The segments that stand for the template's parameters, by parameter name. */
  params: Record<string, Segment>
}

/** The method whose operation answers a request: HEAD is GET without content (src/http/methods.ts). */
export function routedMethod(method: string): string {
  return isHead(method) ? 'GET' : method
}

/** Splits a request path into decoded segments; MALFORMED where percent-decoding fails. */
export function decodeSegments(path: string): Segment[] {
  return path
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment)
      } catch {
        return MALFORMED
      }
    })
}

/**
 * Whether a path's segments address the users API, which lives under `/api` (docs/contract.md §4): the
 * engine reads them decoded (`/%61pi/…` is its API too), the proxy as sent (a backend's decoding is its own).
 */
export function isUnderApi(segments: readonly Segment[]): boolean {
  return segments[0] === 'api'
}

/** Splits a request path into its segments as sent, undecoded. */
export function rawSegments(path: string): string[] {
  return path.split('/').slice(1)
}

/**
 * The matcher of the document's paths (CONTRACT §4): a path matches a template of as many segments
 * whose literals it repeats; an empty segment stands for no parameter (`/api/users/` is no route, not a
 * bad id). Literal segments win over parameters, so `/api/users/me` is never `/api/users/{id}` (OpenAPI
 * 3.1's Paths Object: concrete paths are matched before templated ones). A rule of the document's format,
 * not of the mock: the engine's router and the suite's operation matcher both follow it.
 */
export function createPathMatcher(paths: Iterable<string>): (segments: readonly Segment[]) => PathMatch | undefined {
  const templates = [...new Set(paths)]
    .map((path) => ({ path, segments: rawSegments(path) }))
    .sort((a, b) => literalCount(b) - literalCount(a))
  return (segments) => {
    const template = templates.find((candidate) => matches(candidate, segments))
    if (!template) return undefined
    const params: PathMatch['params'] = {}
    // As many segments as the template's: each parameter has its value.
    template.segments.forEach((segment, index) => {
      if (isParameter(segment)) params[segment.slice(1, -1)] = segments[index] as Segment
    })
    return { template, params }
  }
}

function matches(template: PathTemplate, segments: readonly Segment[]): boolean {
  if (template.segments.length !== segments.length) return false
  return template.segments.every((expected, index) => {
    const actual = segments[index]
    return isParameter(expected) ? actual !== '' : actual === expected
  })
}

function literalCount(template: PathTemplate): number {
  return template.segments.filter((segment) => !isParameter(segment)).length
}

function isParameter(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}')
}
