/**
 * What the Authorization header of a request says, as docs/contract.md §2 reads it: missing, another
 * scheme, an empty Bearer token, or a token. `repeated`: the contract leaves a second Authorization
 * header open (docs/contract.md, "Where the contract leaves room"), so nothing is judged of it.
 */
export type Credentials =
  { kind: 'missing' | 'other-scheme' | 'empty' | 'repeated' } | { kind: 'bearer'; token: string }

/**
 * @example
 * readCredentials(['Authorization', 'Bearer owner-token']) // { kind: 'bearer', token: 'owner-token' }
 * readCredentials(['Authorization', 'Basic dXNlcg==']) // { kind: 'other-scheme' }
 */
export function readCredentials(rawHeaders: readonly string[]): Credentials {
  const values: string[] = []
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() === 'authorization') values.push(rawHeaders[index + 1] as string)
  }
  if (values.length === 0) return { kind: 'missing' }
  if (values.length > 1) return { kind: 'repeated' }
  // The scheme matches case-insensitively; only spaces and tabs surround the token (§2, profile).
  const match = /^[ \t]*(\S+)(?:[ \t]+([\s\S]*?))?[ \t]*$/.exec(values[0] as string)
  if (!match || match[1]?.toLowerCase() !== 'bearer') return { kind: 'other-scheme' }
  const token = match[2] ?? ''
  return token === '' ? { kind: 'empty' } : { kind: 'bearer', token }
}
