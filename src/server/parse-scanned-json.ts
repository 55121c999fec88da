import { AppError } from '../errors.js'
import type { ByteSpan, ScannedJson, TopMember } from './json-body-scanner.js'

/**
 * A member of the top-level object larger than this that is not an array whose elements were found is
 * not parsed: no member of a state is (its `$schema` is a short string), and it is read as `null`, which
 * the state's validation then refuses, naming it.
 */
const MAX_PLAIN_MEMBER_BYTES = 64 * 1024

/**
 * The value of a scanned body, parsed a slice at a time: the top-level object with its arrays left
 * empty first, then their elements one by one, `slice()` letting other requests in between. A body that
 * is not an object is parsed whole when small, and refused otherwise (a state is an object).
 *
 * @throws AppError('VALIDATION_FAILED') for text that is not JSON, or a large body that is no object.
 * @example
 * const value = await parseScannedJson(scanner.end(), createTimeSlices())
 */
export async function parseScannedJson(scanned: ScannedJson, slice: () => Promise<void>): Promise<unknown> {
  const { bytes, members } = scanned
  if (members === undefined) {
    if (bytes.length > MAX_PLAIN_MEMBER_BYTES) throw notAnObject()
    return parse(bytes.toString('utf8'))
  }
  const top = parse(skeletonOf(bytes, members))
  if (typeof top !== 'object' || top === null || Array.isArray(top)) throw notAnObject()
  const keys = members.map((member) => parse(bytes.toString('utf8', member.key.start, member.key.end)) as string)
  for (const [index, member] of members.entries()) {
    // JSON.parse keeps the last of two members with one key; so does this.
    if (member.elements === undefined || keys.lastIndexOf(keys[index] as string) !== index) continue
    const elements: unknown[] = []
    for (const span of member.elements) {
      elements.push(parse(bytes.toString('utf8', span.start, span.end)))
      await slice()
    }
    // defineProperty: a key "__proto__" is a member, as JSON.parse makes it, never the prototype.
    Object.defineProperty(top, keys[index] as string, {
      value: elements,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return top
}

/**
 * The body with each array whose elements were found written `[]` (they are parsed one by one, and
 * nothing but separators lies between them) and each large plain member `null`: small, and still JSON.
 */
function skeletonOf(bytes: Buffer, members: TopMember[]): string {
  const replaced: Array<{ span: ByteSpan; text: string }> = []
  for (const member of members) {
    if (member.elements !== undefined) replaced.push({ span: member.value, text: '[]' })
    else if (member.value.end - member.value.start > MAX_PLAIN_MEMBER_BYTES)
      replaced.push({ span: member.value, text: 'null' })
  }
  const parts: string[] = []
  let at = 0
  for (const { span, text } of replaced) {
    parts.push(bytes.toString('utf8', at, span.start), text)
    at = span.end
  }
  parts.push(bytes.toString('utf8', at))
  return parts.join('')
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    const message = `the body is not valid JSON (${(error as Error).message.slice(0, 200)})`
    throw new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
      errors: [{ in: 'body', path: '', message }],
    })
  }
}

function notAnObject(): AppError {
  const message = 'must be a JSON object'
  return new AppError('VALIDATION_FAILED', `The request is invalid: the body ${message}.`, {
    errors: [{ in: 'body', path: '', message }],
  })
}
